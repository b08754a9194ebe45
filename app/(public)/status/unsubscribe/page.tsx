import type { Metadata } from "next";
import { MailLinkPage } from "@/components/status/mail-link-page";
import { mailKey } from "@/server/status-mail/config";
import { verifyMailToken } from "@/server/status-mail/tokens";

export const metadata: Metadata = { title: "Unsubscribe" };
export const dynamic = "force-dynamic";

/** A status mail's unsubscribe link (no session; auth.config.ts lets the path through). */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ token?: string; state?: string }> }) {
  const { token = "", state } = await searchParams;
  const key = mailKey();
  const tokenValid = !!key && !!verifyMailToken(key, token, "unsubscribe", new Date());
  return <MailLinkPage kind="unsubscribe" token={token} state={state} tokenValid={tokenValid} />;
}
