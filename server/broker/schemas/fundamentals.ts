import "server-only";
import { z } from "zod";

/**
 * Fundamentals and corporate actions (Market Data API). The SDKs' data client returns these answers as the upstream
 * sends them and the spec shows no shapes, so the responses are parsed as records of scalar fields: numbers become
 * decimal strings (never floats downstream), booleans and strings stay, nested values are kept for the page to show
 * or leave. An answer is an object, an array, or either of them under `data` (or `list` / `items`).
 */
export const FUNDAMENTAL_CATEGORIES = ["US_STOCK", "HK_STOCK", "CN_STOCK"] as const;

export const symbolIn = z.object({ symbol: z.string().min(1).max(24), category: z.enum(FUNDAMENTAL_CATEGORIES) });
export const statementIn = symbolIn.extend({
  type: z.enum(["ANNUAL", "QUARTERLY"]).optional(),
  count: z.number().int().min(1).max(20).optional(),
});
export const corporateActionsIn = z.object({
  instrument_ids: z.string().min(1),
  event_types: z.string().optional(),
  start_date: z.string().optional(),
  end_date: z.string().optional(),
  page_number: z.number().int().min(1).optional(),
  page_size: z.number().int().min(1).max(200).optional(),
});

const scalar = z.union([z.string(), z.number().transform((n) => String(n)), z.boolean(), z.null()]);
/** One record: scalar fields as strings / booleans / null, anything nested kept as it came. */
export const fact = z.record(z.string(), z.union([scalar, z.unknown()]));
export type Fact = Record<string, unknown>;

const rows = z.array(fact);
const WRAPPERS = ["data", "list", "items"] as const;

/** Every record of an answer, whichever way it is wrapped (a wrapper is an object whose only fields are wrappers). */
export const facts = z.union([rows, fact, z.null()]).transform((v): Fact[] => {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  const keys = Object.keys(v);
  const wrapper = keys.length > 0 && keys.every((k) => (WRAPPERS as readonly string[]).includes(k));
  if (!wrapper) return [v];
  const inner = WRAPPERS.map((k) => v[k]).find((x) => x !== undefined);
  if (inner === null || inner === undefined) return [];
  return Array.isArray(inner) ? rows.parse(inner) : [fact.parse(inner)];
});

export type SymbolInput = z.input<typeof symbolIn>;
export type StatementInput = z.input<typeof statementIn>;
export type CorporateActionsInput = z.input<typeof corporateActionsIn>;
