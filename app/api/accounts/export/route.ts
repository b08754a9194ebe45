import type { NextRequest } from "next/server";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { accountsCsvStream } from "@/server/accounts/csv";
import { errorResponse } from "@/server/accounts/route-helpers";
import { guardRoute } from "@/server/auth/guard";
import { broker } from "@/server/broker";

/** CSV of every account matching the table's filter (all pages, walked on the server), streamed. */
export async function GET(request: NextRequest) {
  const guard = await guardRoute("accounts:read");
  if ("response" in guard) return guard.response;
  const params = parseAccountListParams(request.nextUrl.searchParams);
  try {
    // Ask for the first page before answering, so an upstream failure is a clean error rather than a cut-off file.
    await broker().listVirtualAccounts({ page_size: 1 });
  } catch (error) {
    return errorResponse(error);
  }
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "");
  return new Response(accountsCsvStream(params), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="virtual-accounts-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
