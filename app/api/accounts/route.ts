import type { NextRequest } from "next/server";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import { guardedJson } from "@/server/accounts/route-helpers";

/** One page of the accounts table, for the table's client-side refetches (same params as the page URL). */
export async function GET(request: NextRequest) {
  return guardedJson("accounts:read", () => listAccountsPage(parseAccountListParams(request.nextUrl.searchParams)));
}
