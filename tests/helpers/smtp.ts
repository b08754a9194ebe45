import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  /** A header's raw value (unfolded), by lower-case name. */
  header(name: string): string | undefined;
  messageId: string | undefined;
  attachments: { filename: string | undefined; contentType: string; content: Buffer }[];
}

/**
 * A real SMTP server for a test file (smtp-server on 127.0.0.1): keeps what it accepted, in order. A mail is in
 * `received` before the server answers 250, so once a send resolved the mail is there. `stop()` and `start()`
 * again on the same port put the server down and back.
 */
export function testSmtpServer() {
  const received: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  let port = 0;
  const make = () =>
    new SMTPServer({
      disabledCommands: ["AUTH", "STARTTLS"],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              header: (name) => headerValue(mail, name),
              messageId: mail.messageId,
              attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  return {
    received,
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    to: (address: string) => received.filter((m) => m.to.includes(address)),
    async start(): Promise<void> {
      server = make();
      await new Promise<void>((resolve, reject) => {
        server!.once("error", reject);
        server!.listen(port, "127.0.0.1", () => resolve());
      });
      const address = server.server.address();
      if (typeof address === "object" && address) port = address.port;
    },
    async stop(): Promise<void> {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}

function headerValue(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name)?.line;
  return line
    ?.slice(line.indexOf(":") + 1)
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
}
