import "server-only";
import Decimal from "decimal.js";
import { z } from "zod";
import { CLIENT_ID_PATTERN } from "@/lib/ids";

/**
 * Building blocks of the Broker API schemas. Response schemas are tolerant (the upstream adds values and fields
 * over time and the app must keep working); request schemas are strict (we never send what the docs do not allow).
 */

/** A known enum value, or any other string the upstream sent, kept raw. */
export type Tolerant<T extends string> = T | (string & { readonly __unknownEnumValue?: never });

/** Parses an enum without ever failing on a new value: the raw string is kept as-is. */
export function tolerantEnum<const T extends readonly [string, ...string[]]>(_values: T) {
  // the values only type the output; any string is accepted and kept
  return z.string().transform((v) => v as Tolerant<T[number]>);
}

export function isKnownEnum<const T extends readonly string[]>(values: T, v: string): v is T[number] {
  return (values as readonly string[]).includes(v);
}

/** "unknown (RAW)" for values the app does not know, the value itself otherwise. */
export function enumLabel(values: readonly string[], v: string | undefined | null): string {
  if (v === undefined || v === null || v === "") return "—";
  return values.includes(v) ? v : `unknown (${v})`;
}

/** Nullable or missing in, `undefined` out: app types have one notion of "absent". */
export function opt<S extends z.ZodType>(schema: S) {
  return schema.nullish().transform((v) => (v ?? undefined) as z.output<S> | undefined);
}

/** Money / quantity in a response: a decimal string (numbers are converted once, at the edge). */
export const decimalOut = z.union([z.string(), z.number()]).transform((v) => (typeof v === "number" ? new Decimal(v).toString() : v));

/** Money / quantity in a request: strictly a decimal string, never a float. */
export const decimalIn = z.string().regex(/^-?\d+(\.\d+)?$/, "must be a decimal string such as \"12.50\"");
export const positiveDecimalIn = decimalIn.refine((v) => new Decimal(v).gt(0), "must be greater than zero");

/** ISO timestamps are normalised to `YYYY-MM-DDThh:mm:ss.sssZ`; an unparseable value is kept raw, not a crash. */
export const isoTimestamp = z.union([z.string(), z.number()]).transform((v) => {
  const d = new Date(typeof v === "number" ? v : v.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
});

/** Epoch milliseconds (number or numeric string, e.g. deprecated `place_time`) to ISO. */
export const epochMsTimestamp = z.union([z.string(), z.number()]).transform((v) => {
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? new Date(n).toISOString() : String(v);
});

/** yyyy-MM-dd, kept as a string (a trading date has no time zone). */
export const dateOnly = z.string();
export const dateIn = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be yyyy-MM-dd");

/** Upstream booleans arrive as true/false or as "Y"/"N" strings. */
export const flexibleBool = z.union([z.boolean(), z.string(), z.number()]).transform((v) =>
  typeof v === "boolean" ? v : typeof v === "number" ? v !== 0 : ["true", "y", "yes", "1"].includes(v.toLowerCase()),
);

export const clientId = z.string().regex(CLIENT_ID_PATTERN, "must be 1–32 characters of A-Z a-z 0-9 _ -");

export const CURRENCIES = ["USD", "HKD", "CNH"] as const;
export const currencyIn = z.enum(CURRENCIES);
export const currencyOut = tolerantEnum(CURRENCIES);

export const MARKETS = ["US", "HK", "CN"] as const;
export const INSTRUMENT_TYPES = ["EQUITY", "OPTION"] as const;
export const REQUEST_STATUSES = ["SUBMITTED", "CANCELED", "REJECTED", "FAILED", "COMPLETED"] as const;

/** One page of a list operation: items plus the opaque cursor of the next page (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Paging input shared by list operations; `cursor` is a previous page's `nextCursor`. */
export const pageIn = z.object({
  page_size: z.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).optional(),
});
