import { z } from "zod";
import { listParams, type StateOf } from "@/lib/list-params";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "./virtual-account";

/**
 * The accounts table's state, as it lives in the URL: parsed the same way by the page (server prefetch), the GET
 * route handlers (client refetch, CSV export) and the table's hook. The upstream lists accounts newest first and
 * takes no order, so the table offers no sort (sorting one page would be a lie about the others).
 */
export const SEARCH_FIELDS = ["auto", "name", "account_number", "external_account_number"] as const;

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().catch(undefined);

export const accountListParams = listParams({
  filters: {
    q: z.string().trim().max(64).optional().catch(undefined),
    by: z.enum(SEARCH_FIELDS).default("auto").catch("auto"),
    status: optionalEnum(ACCOUNT_STATUSES),
    type: optionalEnum(ACCOUNT_TYPES),
    level: optionalEnum(OPTION_LEVELS),
    permission: optionalEnum(TRADING_PERMISSIONS),
  },
  sizes: [10, 25, 50, 100],
  defaultSize: 25,
});
export type AccountListParams = StateOf<typeof accountListParams>;

/** The upstream filter a search box value means: an explicit field, or a guess from its shape. */
export function searchFilter(
  q: string | undefined,
  by: AccountListParams["by"],
): { field: "name" | "account_number" | "external_account_number"; value: string } | undefined {
  if (!q) return undefined;
  // Account numbers are upper case whatever was typed ("vbd1000030" is VBD1000030); external numbers and names go
  // as typed (the upstream's filter ignores their case, and a name's accents).
  if (by === "account_number") return { field: by, value: q.toUpperCase() };
  if (by !== "auto") return { field: by, value: q };
  // Account numbers are "V" + entity code + external number (e.g. VBD1000001); external numbers are short codes
  // with a digit; anything else is a name.
  if (/^V[A-Z]{1,4}[A-Z0-9]{1,10}$/i.test(q) && /\d/.test(q)) return { field: "account_number", value: q.toUpperCase() };
  if (/^[A-Za-z0-9]{1,10}$/.test(q) && /\d/.test(q)) return { field: "external_account_number", value: q };
  return { field: "name", value: q };
}

/** Parses URLSearchParams or a Next `searchParams` record (the page, the route handlers, the benchmarks). */
export const parseAccountListParams = accountListParams.parse;
