import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { getRawAccount } from "@/server/accounts/accounts";

/**
 * A real 404 for an account the upstream does not know: the pages below stream behind loading.tsx, so by the time
 * they could call notFound() the status is already 200. The lookup is cached per request and reused by the page.
 * An upstream failure is not decided here: the page's overview panel shows it, with a Retry.
 */
export default async function AccountLayout({ children, params }: { children: ReactNode; params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const account = await getRawAccount(accountId).catch(() => null);
  if (account === undefined) notFound();
  return children;
}
