import "server-only";
import { REPORTS_TOPIC } from "@/lib/schemas/reports";
import type { Queryable } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { backoffMs, sleep, type Backoff } from "@/server/timing";
import { composeMail, type ComposeConfig, type ComposedMail } from "./compose";
import { claimDueMails, deferMail, queueIncidentMails, settleMail } from "./queries";

/**
 * The outbox's two steps, run by the `status-mail` job (server/jobs) every MAIL_PASS_MS: queue the incidents' mails
 * that are due (the debounce), then send what is due (also the scheduled reports' mails, queued by server/reports). A sender claims rows with a lease (FOR UPDATE SKIP LOCKED, one
 * statement), sends outside any transaction (an SMTP server that hangs holds no lock and, on PGlite, no database),
 * and marks each sent; a refusal puts it back with a backoff. A row is sent by one sender; only a process that dies
 * after the SMTP server took the mail and before marking it can send it again once its lease ends, with the same
 * Message-ID.
 */
export interface MailSender {
  send(mail: ComposedMail): Promise<void>;
}

export interface OutboxDeps {
  engine: Queryable;
  sender: MailSender;
  compose: ComposeConfig;
  /** An incident's "opened" waits this long (a shorter flap sends nothing). */
  debounceMs: number;
  /** Between attempts while the SMTP server refuses (default 5 s doubling to 10 min, equal jitter). */
  backoff?: Backoff;
  /** How long a claim holds a row (longer than the transport's timeouts). */
  leaseMs?: number;
  batch?: number;
  now?: () => Date;
  log?: (level: "info" | "warn", msg: string, extra?: Record<string, unknown>) => void;
}

/** How often the job's loop runs a pass: a mail leaves within this of being due. */
export const MAIL_PASS_MS = 2_000;
const DEFAULT_BACKOFF: Backoff = { baseMs: 5_000, maxMs: 600_000, jitter: "equal" };

export interface PassResult {
  queued: number;
  sent: number;
  skipped: number;
  deferred: number;
}

/**
 * One pass: queue what is due, then send due mails until none is left (or a refusal: the rest waits its turn). With
 * no public address for the links (`compose.baseUrl`) the status mails are off: no incident's mail is queued and only
 * the reports' mails are sent.
 */
export async function runOutboxPass(d: OutboxDeps): Promise<PassResult> {
  const now = d.now ?? (() => new Date());
  const statusMail = !!d.compose.baseUrl;
  const queued = statusMail ? await queueIncidentMails(d.engine, now(), d.debounceMs) : 0;
  const result: PassResult = { queued, sent: 0, skipped: 0, deferred: 0 };
  for (;;) {
    const t = now();
    const claimed = await claimDueMails(d.engine, t, new Date(t.getTime() + (d.leaseMs ?? 120_000)), d.batch ?? 20, !statusMail);
    if (claimed.length === 0) return result;
    let refused = false;
    for (const mail of claimed) {
      if (!mail.active) {
        await settleMail(d.engine, mail.id, "skipped", now());
        result.skipped++;
        continue;
      }
      try {
        // After a refusal the rest of the batch is not tried now: the server is down for them too.
        if (refused) throw new Error("not tried: the SMTP server refused an earlier mail of this pass");
        await d.sender.send(composeMail(mail, d.compose, now()));
        await settleMail(d.engine, mail.id, "sent", now());
        result.sent++;
        // A report's run shows its mails' progress on Admin → Reports.
        if (mail.kind === "report") await notifyChange(d.engine, { topics: [REPORTS_TOPIC], accounts: [] });
      } catch (error) {
        refused = true;
        const message = String((error as Error).message ?? error);
        const retryAt = new Date(now().getTime() + backoffMs(mail.attempts, d.backoff ?? DEFAULT_BACKOFF));
        await deferMail(d.engine, mail.id, retryAt, message);
        result.deferred++;
        d.log?.("warn", "status mail not sent, retried later", { id: mail.id, attempts: mail.attempts, err: message });
      }
    }
    if (refused) return result;
  }
}

/** The job's run: passes every MAIL_PASS_MS until its time slice ends (the job then sends itself again). */
export async function runOutboxLoop(d: OutboxDeps, signal: AbortSignal): Promise<PassResult> {
  const total: PassResult = { queued: 0, sent: 0, skipped: 0, deferred: 0 };
  while (!signal.aborted) {
    const r = await runOutboxPass(d);
    for (const k of Object.keys(total) as (keyof PassResult)[]) total[k] += r[k];
    await sleep(MAIL_PASS_MS, signal);
  }
  return total;
}
