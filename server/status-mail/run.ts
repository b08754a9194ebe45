import "server-only";
import { env } from "@/lib/env";
import type { Queryable } from "@/server/db/engine";
import { mailKey, publicBaseUrl, statusMailOff } from "./config";
import type { OutboxDeps } from "./outbox";
import { smtpSender, startEmbeddedSmtp } from "./smtp";

export interface MailDelivery {
  deps: OutboxDeps;
  /** The embedded SMTP server's URL when no SMTP_URL is configured. */
  embeddedUrl?: string;
  close(): Promise<void>;
}

/**
 * The outbox's dependencies from the configuration, in the process that runs the job system: SMTP_URL, or else the
 * embedded SMTP server started here (what it receives is on /admin/mail). Undefined without AUTH_SECRET (links
 * could not be signed): the job then sends nothing. Without a public address for the links (`publicBaseUrl`: no
 * AUTH_URL outside the embedded defaults) the status mails are off, logged here, and only the scheduled reports'
 * mails, which carry no link, are sent.
 */
export async function startMailDelivery(
  engine: Queryable,
  log: (level: "info" | "warn", msg: string, extra?: Record<string, unknown>) => void,
): Promise<MailDelivery | undefined> {
  const e = env();
  const key = mailKey(e);
  if (!key) {
    log("warn", `status mail off: ${statusMailOff(e)}; no mail is sent`);
    return undefined;
  }
  const baseUrl = publicBaseUrl(e);
  if (!baseUrl) log("warn", `status mail off: ${statusMailOff(e)}; only the scheduled reports' mails are sent until it is set`);
  const embedded = e.SMTP_URL ? undefined : await startEmbeddedSmtp(engine);
  const sender = smtpSender(e.SMTP_URL ?? embedded!.url);
  if (embedded) log("info", "embedded SMTP server started (no SMTP_URL): mails are on /admin/mail", { url: embedded.url });
  return {
    deps: {
      engine,
      sender,
      compose: { from: e.STATUS_MAIL_FROM, baseUrl, key },
      debounceMs: e.STATUS_MAIL_DEBOUNCE_MS,
      log,
    },
    embeddedUrl: embedded?.url,
    close: async () => {
      sender.close();
      await embedded?.close();
    },
  };
}
