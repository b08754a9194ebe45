import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { accountIdOfNumber, getRawAccount } from "@/server/accounts/accounts";
import { requirePermission } from "@/server/auth/guard";

/**
 * A real 404 for an account the upstream does not know: the pages below stream behind loading.tsx, so by the time
 * they could call notFound() the status is already 200. The lookup is cached per request and reused by the page.
 * An upstream failure is not decided here: the page's overview panel shows it, with a Retry. An address that names
 * the account by its number (typed or pasted: /accounts/VBD1000034) goes to the account's page.
 */
export default async function AccountLayout({ children, params }: { children: ReactNode; params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const account = await getRawAccount(accountId).catch(() => null);
  if (account === undefined) {
    await requirePermission("accounts:read");
    const id = await accountIdOfNumber(decodeURIComponent(accountId)).catch(() => undefined);
    if (id) redirect(`/accounts/${encodeURIComponent(id)}`);
    notFound();
  }
  return children;
}
