import { getAccountFor } from "@/server/accounts/accounts";
import { guardedJson } from "@/server/accounts/route-helpers";

/** The account overview, PII masked on the server for roles without pii:view. */
export async function GET(_request: Request, { params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return guardedJson("accounts:read", async (staff) => {
    const account = await getAccountFor(staff, accountId);
    if (!account) return Response.json({ error: "ACCOUNT_NOT_FOUND", message: "This account does not exist." }, { status: 404 });
    return account;
  });
}
