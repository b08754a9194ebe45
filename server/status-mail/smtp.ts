import "server-only";
import nodemailer from "nodemailer";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Queryable } from "@/server/db/engine";
import type { MailSender } from "./outbox";
import { insertInboxMessage } from "./queries";

/** Mail through SMTP (nodemailer) to `url` (smtp:// or smtps://, credentials in the URL). */
export function smtpSender(url: string): MailSender & { close(): void } {
  const transport = nodemailer.createTransport(url, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    send: async (m) => {
      await transport.sendMail({
        from: m.from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        messageId: m.messageId,
        headers: m.headers,
        attachments: m.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })),
      });
    },
    close: () => transport.close(),
  };
}

/** What the embedded server takes, as common mail servers do: a report of many accounts, base64 in its mail, fits. */
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/**
 * The embedded default when no SMTP_URL is set: an SMTP server on 127.0.0.1 (a free port) in the process that runs
 * the job system, storing what it receives in the app database for /admin/mail. Plain SMTP without AUTH or STARTTLS:
 * it is reachable from this machine only and keeps mails only for reading them on the page.
 */
export async function startEmbeddedSmtp(
  engine: Queryable,
  { port = 0, maxBytes = MAX_MESSAGE_BYTES }: { port?: number; maxBytes?: number } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = new SMTPServer({
    disabledCommands: ["AUTH", "STARTTLS"],
    authOptional: true,
    size: maxBytes,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      // Past the limit the rest is read and dropped (smtp-server marks the stream), and the mail refused with 552.
      stream.on("data", (c: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(c);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error(`Message exceeds the ${maxBytes} bytes this server takes`), { responseCode: 552 }));
          return;
        }
        const raw = Buffer.concat(chunks);
        storeReceived(engine, raw, session.envelope)
          .then(() => callback())
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return { url: `smtp://127.0.0.1:${bound}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface Envelope {
  mailFrom: false | { address: string };
  rcptTo: { address: string }[];
}

async function storeReceived(engine: Queryable, raw: Buffer, envelope: Envelope): Promise<void> {
  const parsed = await simpleParser(raw);
  const text = raw.toString("utf8");
  const end = text.search(/\r?\n\r?\n/);
  await insertInboxMessage(
    engine,
    {
      mailFrom: envelope.mailFrom ? envelope.mailFrom.address : "",
      rcptTo: envelope.rcptTo.map((r) => r.address),
      subject: parsed.subject ?? "",
      headers: end >= 0 ? text.slice(0, end) : text,
      body: parsed.text ?? "",
      size: raw.length,
    },
    parsed.attachments.map((a) => ({ filename: a.filename ?? "attachment", contentType: a.contentType, content: a.content })),
  );
}
