import "server-only";
import { STATUS_MODULE_LABELS, type StatusModule } from "@/lib/status";
import type { ClaimedMail, MailAttachment } from "./queries";
import { signMailToken } from "./tokens";

/**
 * What every mail is composed with: the sender, the desk's public URL for links (undefined: none is configured, and
 * only a report's mail, which has no link, can be composed), the links' key.
 */
export interface ComposeConfig {
  from: string;
  baseUrl: string | undefined;
  key: Buffer;
}

export interface ComposedMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
  attachments?: MailAttachment[];
}

/** A moment in UTC to the second, as mails show it: "2026-11-25 04:51:07 UTC". */
export const utc = (d: Date): string => `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;

const label = (module: string) => STATUS_MODULE_LABELS[module as StatusModule] ?? module;

/**
 * The mail of an outbox row: its subject and text, and on every mail the unsubscribe link in the text and as
 * List-Unsubscribe with List-Unsubscribe-Post (RFC 8058: a POST of `List-Unsubscribe=One-Click` to that URL
 * unsubscribes, no session). The Message-ID is the row's, so a mail sent again after a crash mid-send is one to the
 * recipient's client.
 */
export function composeMail(mail: ClaimedMail, c: ComposeConfig, now: Date): ComposedMail {
  const host = (c.baseUrl && new URL(c.baseUrl).hostname) || "brokerdesk";
  // A report's mail (server/reports) goes to staff the schedule names: composed when queued, no subscription to end.
  if (mail.report) {
    return {
      from: c.from,
      to: mail.recipient,
      subject: mail.report.subject,
      text: mail.report.body,
      messageId: `<report-mail-${mail.id}@${host}>`,
      headers: {},
      attachments: mail.report.attachment ? [mail.report.attachment] : [],
    };
  }
  // Never a link to an address nobody can open (the outbox claims no status mail without one).
  if (!c.baseUrl) throw new Error("a status mail's links need the desk's public address (AUTH_URL)");
  const subscriptionId = mail.subscriptionId ?? "";
  const unsubscribeToken = signMailToken(c.key, { purpose: "unsubscribe", subscriptionId }, now);
  const unsubscribePage = `${c.baseUrl}/status/unsubscribe?token=${unsubscribeToken}`;
  const oneClick = `${c.baseUrl}/api/status/unsubscribe?token=${unsubscribeToken}`;
  let subject: string;
  let lines: string[];
  if (mail.kind === "confirm") {
    const token = signMailToken(c.key, { purpose: "confirm", subscriptionId, nonce: mail.confirmNonce ?? "" }, now);
    const modules = (mail.pendingModules ?? []).map(label).join(", ");
    subject = "Confirm your Brokerdesk status subscription";
    lines = [
      `Someone (we hope you) asked to receive Brokerdesk status mails at this address for: ${modules}.`,
      "",
      "Confirm within 24 hours:",
      `${c.baseUrl}/status/confirm?token=${token}`,
      "",
      "If you did not ask for this, ignore this mail: nothing is sent without confirmation.",
    ];
  } else {
    const i = mail.incident!;
    const name = label(i.module);
    if (mail.kind === "opened") {
      subject = `[Brokerdesk status] ${name}: ${i.state} since ${utc(i.startedAt)}`;
      lines = [`${name} is in ${i.state}.`, "", `Module: ${name}`, `State: ${i.state}`, `Started: ${utc(i.startedAt)}`];
    } else if (mail.kind === "escalated") {
      const since = utc(i.escalatedAt ?? i.startedAt);
      subject = `[Brokerdesk status] ${name}: ${i.state} since ${since}`;
      lines = [
        `${name}, degraded since ${utc(i.startedAt)}, is in ${i.state}.`,
        "",
        `Module: ${name}`,
        `State: ${i.state} (was degraded)`,
        `Started: ${utc(i.startedAt)}`,
        `Escalated: ${since}`,
      ];
    } else {
      subject = `[Brokerdesk status] ${name}: resolved`;
      lines = [
        `${name} is operational again.`,
        "",
        `Module: ${name}`,
        `State: operational (was ${i.state})`,
        `Started: ${utc(i.startedAt)}`,
        `Ended: ${i.endedAt ? utc(i.endedAt) : "-"}`,
      ];
    }
    lines.push("", `Status page: ${c.baseUrl}/status`);
  }
  lines.push("", "--", `Unsubscribe: ${unsubscribePage}`);
  return {
    from: c.from,
    to: mail.recipient,
    subject,
    text: `${lines.join("\n")}\n`,
    messageId: `<status-mail-${mail.id}.${subscriptionId}@${host}>`,
    headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
