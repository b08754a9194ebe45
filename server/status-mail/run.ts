import "server-only";
import { env } from "@/lib/env";
import type { Queryable } from "@/server/db/engine";
import { mailKey, publicBaseUrl } from "./config";
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
 * could not be signed): the job then sends nothing.
 */
export async function startMailDelivery(
  engine: Queryable,
  log: (level: "info" | "warn", msg: string, extra?: Record<string, unknown>) => void,
): Promise<MailDelivery | undefined> {
  const e = env();
  const key = mailKey(e);
  if (!key) {
    log("warn", "status mail off: AUTH_SECRET is not set, so no link can be signed");
    return undefined;
  }
  const embedded = e.SMTP_URL ? undefined : await startEmbeddedSmtp(engine);
  const sender = smtpSender(e.SMTP_URL ?? embedded!.url);
  if (embedded) log("info", "embedded SMTP server started (no SMTP_URL): mails are on /admin/mail", { url: embedded.url });
  return {
    deps: {
      engine,
      sender,
      compose: { from: e.STATUS_MAIL_FROM, baseUrl: publicBaseUrl(e), key },
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
