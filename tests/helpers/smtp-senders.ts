import { afterAll, beforeAll } from "vitest";
import { smtpSender } from "@/server/status-mail/smtp";
import { testSmtpServer } from "./smtp";

/**
 * A real SMTP server for the describe block this is called in, started before its tests, and `openSender()` for a
 * mail sender to it; after the tests every sender opened is closed, then the server stopped.
 */
export function useSmtpServer() {
  const smtp = testSmtpServer();
  const senders: { close(): void }[] = [];
  beforeAll(() => smtp.start());
  afterAll(async () => {
    for (const s of senders) s.close();
    await smtp.stop();
  });
  const openSender = () => {
    const sender = smtpSender(smtp.url);
    senders.push(sender);
    return sender;
  };
  return { smtp, openSender };
}
