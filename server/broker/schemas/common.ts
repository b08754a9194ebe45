import "server-only";
import { z } from "zod";
import { CLIENT_ID_PATTERN } from "@/lib/ids";

/**
 * Building blocks of the Broker API schemas. Response schemas are tolerant (the upstream adds values and fields
 * over time and the app must keep working); request schemas are strict (we never send what the docs do not allow).
 * The parts the UI needs too (tolerant enums, decimal strings, currencies, wire enums) live in `lib` and are
 * re-exported here.
 */
export { enumLabel, isKnownEnum, tolerantEnum } from "@/lib/enums";
export { currencyIn, currencyOut, decimalIn, decimalOut, positiveDecimalIn } from "@/lib/money";
export { CURRENCIES, INSTRUMENT_TYPES, MARKETS, REQUEST_STATUSES } from "@/lib/broker-enums";
export { isoTimestamp, opt, type Page } from "@/lib/schemas/wire";
import { tolerantEnum } from "@/lib/enums";
import { REQUEST_STATUSES } from "@/lib/broker-enums";
import { isoTimestamp, opt } from "@/lib/schemas/wire";

/**
 * What every request keyed by our client_request_id (funding, exchanges, journals, an option exercise) answers of
 * itself: its status and reason, its times.
 */
export const requestRecord = {
  client_request_id: z.string(),
  account_id: opt(z.string()),
  status: tolerantEnum(REQUEST_STATUSES),
  reason: opt(z.string()),
  create_time: opt(isoTimestamp),
  update_time: opt(isoTimestamp),
};

/** Epoch milliseconds (number or numeric string, e.g. deprecated `place_time`) to ISO. */
export const epochMsTimestamp = z.union([z.string(), z.number()]).transform((v) => {
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? new Date(n).toISOString() : String(v);
});

export const dateIn = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be yyyy-MM-dd");

/** Upstream booleans arrive as true/false or as "Y"/"N" strings. */
export const flexibleBool = z
  .union([z.boolean(), z.string(), z.number()])
  .transform((v) => (typeof v === "boolean" ? v : typeof v === "number" ? v !== 0 : ["true", "y", "yes", "1"].includes(v.toLowerCase())));

export const clientId = z.string().regex(CLIENT_ID_PATTERN, "must be 1–32 characters of A-Z a-z 0-9 _ -");

/** Paging input shared by list operations; `cursor` is a previous page's `nextCursor`. */
export const pageIn = z.object({
  page_size: z.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).optional(),
});
