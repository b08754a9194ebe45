import { z } from "zod";

/**
 * Building blocks of tolerant response parsing, shared by the Broker client's schemas and the plain row types the
 * UI receives (`lib/schemas/account-data.ts`). Plain code, no secrets.
 */

/** Nullable or missing in, `undefined` out: app types have one notion of "absent". */
export function opt<S extends z.ZodType>(schema: S) {
  return schema.nullish().transform((v) => (v ?? undefined) as z.output<S> | undefined);
}

/** ISO timestamps are normalised to `YYYY-MM-DDThh:mm:ss.sssZ`; an unparseable value is kept raw, not a crash. */
export const isoTimestamp = z.union([z.string(), z.number()]).transform((v) => {
  const d = new Date(typeof v === "number" ? v : v.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
});

/** One page of a list operation: items plus the opaque cursor of the next page (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}
