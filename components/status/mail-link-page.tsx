import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/field";

/**
 * The page behind a status mail's link (confirm or unsubscribe), without a session: the link itself changes nothing
 * (mail scanners open links); its button posts the token (`/api/status/{kind}`), which sends the browser back here
 * with the outcome.
 */
export function MailLinkPage({
  kind,
  token,
  state,
  tokenValid,
}: {
  kind: "confirm" | "unsubscribe";
  token: string;
  state?: string;
  tokenValid: boolean;
}) {
  const title = kind === "confirm" ? "Confirm your status subscription" : "Unsubscribe from status mails";
  let body;
  if (state === "done") {
    body = (
      <Alert tone="success">
        {kind === "confirm"
          ? "Subscription confirmed. You will receive a mail when a module you chose changes state."
          : "Unsubscribed. This address receives no more status mails."}
      </Alert>
    );
  } else if (state === "invalid" || !tokenValid) {
    body = <Alert>This link is not valid or has expired.{kind === "confirm" ? " Subscribe again on the status page." : ""}</Alert>;
  } else {
    body = (
      <form method="post" action={`/api/status/${kind}?token=${encodeURIComponent(token)}`} className="space-y-3">
        <input type="hidden" name="from" value="page" />
        <p className="text-sm text-slate-700">
          {kind === "confirm"
            ? "Confirm to start receiving Brokerdesk status mails for the modules you chose."
            : "Stop every Brokerdesk status mail to this address."}
        </p>
        <Button type="submit" variant={kind === "confirm" ? "primary" : "danger"}>
          {kind === "confirm" ? "Confirm subscription" : "Unsubscribe"}
        </Button>
      </form>
    );
  }
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4">
      <div className="w-full max-w-md">
        <h1 className="mb-4 text-center text-xl font-semibold tracking-tight">Brokerdesk status</h1>
        <div className="rounded border border-slate-200 bg-white p-5 shadow-sm">
          <h2 className="mb-3 text-base font-semibold">{title}</h2>
          {body}
        </div>
      </div>
    </main>
  );
}
