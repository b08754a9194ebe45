import { z } from "zod";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "./virtual-account";

/**
 * The accounts table's state, as it lives in the URL: declared once, parsed the same way by the page (server
 * prefetch), the GET route handlers (client refetch, CSV export) and the table's hook. Bad values fall back to
 * defaults rather than erroring: a hand-edited URL still opens the page.
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const SEARCH_FIELDS = ["auto", "name", "account_number", "external_account_number"] as const;
export const SORTABLE = ["create_time", "account_number", "external_account_number", "owner_name", "account_status", "option_level"] as const;

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().catch(undefined);

export const accountListParamsSchema = z.object({
  q: z.string().trim().max(64).optional().catch(undefined),
  by: z.enum(SEARCH_FIELDS).default("auto").catch("auto"),
  status: optionalEnum(ACCOUNT_STATUSES),
  type: optionalEnum(ACCOUNT_TYPES),
  level: optionalEnum(OPTION_LEVELS),
  permission: optionalEnum(TRADING_PERMISSIONS),
  size: z.coerce.number().refine((n) => (PAGE_SIZES as readonly number[]).includes(n)).default(25).catch(25),
  /** Opaque upstream cursor of the current page; absent on the first page. */
  cursor: z.string().max(512).optional().catch(undefined),
  /** Cursors of the pages before this one, comma-separated, so "Previous" works with keyset paging. */
  prev: z.string().max(4096).optional().catch(undefined),
  /** `column.asc|desc`; the upstream returns newest first, so other orders sort the rows of the current page. */
  sort: z.string().regex(new RegExp(`^(${SORTABLE.join("|")})\\.(asc|desc)$`)).optional().catch(undefined),
  /** Hidden columns, comma-separated. */
  hide: z.string().max(256).optional().catch(undefined),
});
export type AccountListParams = z.infer<typeof accountListParamsSchema>;

/** Parses URLSearchParams or a Next `searchParams` record. */
export function parseAccountListParams(input: URLSearchParams | Record<string, string | string[] | undefined>): AccountListParams {
  const record = input instanceof URLSearchParams ? Object.fromEntries(input) : Object.fromEntries(Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  return accountListParamsSchema.parse(record);
}

/** The URL query of a state, defaults left out so URLs stay short. */
export function accountListQuery(p: Partial<AccountListParams>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) {
    if (v === undefined || v === "" || (k === "by" && v === "auto") || (k === "size" && v === 25)) continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** The upstream filter a search box value means: an explicit field, or a guess from its shape. */
export function searchFilter(q: string | undefined, by: AccountListParams["by"]): { field: "name" | "account_number" | "external_account_number"; value: string } | undefined {
  if (!q) return undefined;
  if (by !== "auto") return { field: by, value: q };
  // Account numbers are "V" + entity code + external number (e.g. VBD1000001); external numbers are short codes
  // with a digit; anything else is a name.
  if (/^V[A-Z]{1,4}[A-Za-z0-9]{1,10}$/.test(q) && /\d/.test(q)) return { field: "account_number", value: q };
  if (/^[A-Za-z0-9]{1,10}$/.test(q) && /\d/.test(q)) return { field: "external_account_number", value: q };
  return { field: "name", value: q };
}
