import { getAccountBalance } from "@/server/accounts/accounts";
import { guardedJson } from "@/server/accounts/route-helpers";

export async function GET(_request: Request, { params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return guardedJson("accounts:read", () => getAccountBalance(accountId));
}
