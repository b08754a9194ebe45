import type { NextRequest } from "next/server";
import { getAccountActivities } from "@/server/accounts/accounts";
import { guardedJson } from "@/server/accounts/route-helpers";

export async function GET(request: NextRequest, { params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const cursor = request.nextUrl.searchParams.get("cursor")?.slice(0, 512) || undefined;
  return guardedJson("accounts:read", () => getAccountActivities(accountId, cursor));
}
