import { MailLinkPage } from "@/components/status/mail-link-page";
import { mailKey } from "@/server/status-mail/config";
import { verifyMailToken, type MailTokenPurpose } from "@/server/status-mail/tokens";

/**
 * The page behind a status mail's link of one kind (no session; auth.config.ts lets the path through): the link's
 * token read against the mails' key now, and the page that offers its button or says the link is not valid.
 */
export function mailLinkPage(kind: MailTokenPurpose) {
  return async function MailLink({ searchParams }: { searchParams: Promise<{ token?: string; state?: string }> }) {
    const { token = "", state } = await searchParams;
    const key = mailKey();
    const tokenValid = !!key && !!verifyMailToken(key, token, kind, new Date());
    return <MailLinkPage kind={kind} token={token} state={state} tokenValid={tokenValid} />;
  };
}
