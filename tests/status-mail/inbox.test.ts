import { describe, expect, it, vi } from "vitest";
import { GET as attachmentRoute } from "@/app/api/mail/[id]/attachments/[n]/route";
import type { AppDb } from "@/server/db";
import { readInbox } from "@/server/status-mail/inbox";
import { startEmbeddedSmtp, smtpSender } from "@/server/status-mail/smtp";
import { session } from "../helpers/desk-session";
import { testEngines, withProcessDb } from "../helpers/engines";
import { newStaff } from "../helpers/staff";

/**
 * Admin → Mail: the embedded SMTP server keeps what it receives, with its headers and the files a mail carried (a
 * scheduled report's CSV or PDF); the page lists them, and an administrator downloads each as it was sent. Both
 * engines.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));

for (const engine of testEngines()) {
  describe(`the embedded mail server's attachments (${engine.name})`, () => {
    let db: AppDb;
    withProcessDb(engine, (d) => (db = d));

    it("keeps a received mail with its headers and files, and an administrator downloads each file as sent", async () => {
      const csv = new TextEncoder().encode("\uFEFFTime (UTC),Kind\r\n2026-11-28T10:00:00.000Z,CASH_JOURNAL\r\n");
      // Every byte value once: what went out comes back byte for byte.
      const binary = Uint8Array.from({ length: 256 }, (_, i) => (i * 7) % 256);
      const smtp = await startEmbeddedSmtp(db.engine);
      const sender = smtpSender(smtp.url);
      try {
        await sender.send({
          from: "reports@desk.test",
          to: "reader@desk.test",
          subject: "With files",
          text: "Attached: two files.\n",
          messageId: "<with-files@desk.test>",
          headers: {},
          attachments: [
            { filename: "daily-movements-2026-11-28.csv", contentType: "text/csv", content: csv },
            { filename: "fx-volume-2026-11-28.pdf", contentType: "application/pdf", content: binary },
          ],
        });
        await sender.send({
          from: "status@desk.test",
          to: "reader@desk.test",
          subject: "No files",
          text: "Plain.\n",
          messageId: "<plain@desk.test>",
          headers: { "List-Unsubscribe": "<http://desk.test/api/status/unsubscribe?token=x>" },
        });
      } finally {
        sender.close();
        await smtp.close();
      }
      const { mails } = await readInbox(db.engine);
      const idOf = (subject: string) => mails.find((m) => m.subject === subject)!.id;
      const withFiles = (await readInbox(db.engine, idOf("With files"))).selected!;
      expect(withFiles.body).toBe("Attached: two files.\n");
      expect(withFiles.attachments).toEqual([
        { n: 1, filename: "daily-movements-2026-11-28.csv", contentType: "text/csv", size: csv.length },
        { n: 2, filename: "fx-volume-2026-11-28.pdf", contentType: "application/pdf", size: binary.length },
      ]);
      const plain = (await readInbox(db.engine, idOf("No files"))).selected!;
      expect(plain).toMatchObject({ mailFrom: "status@desk.test", rcptTo: ["reader@desk.test"], body: "Plain.\n", attachments: [] });
      expect(plain.headers).toContain("List-Unsubscribe: <http://desk.test/api/status/unsubscribe?token=x>");

      const download = (id: string, n: string) =>
        attachmentRoute(new Request(`http://desk.test/api/mail/${id}/attachments/${n}`), { params: Promise.resolve({ id, n }) });
      const admin = await newStaff(db, "admin", "inbox.test");
      session.staff = { id: admin.id, email: admin.email, name: admin.name, role: "admin" };
      const pdf = await download(withFiles.id, "2");
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      expect(pdf.headers.get("content-disposition")).toBe('attachment; filename="fx-volume-2026-11-28.pdf"');
      expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(binary);
      expect(new Uint8Array(await (await download(withFiles.id, "1")).arrayBuffer())).toEqual(csv);
      expect((await download(withFiles.id, "3")).status).toBe(404);
      expect((await download(idOf("No files"), "1")).status).toBe(404);
      expect((await download(withFiles.id, "0")).status).toBe(400);

      const ops = await newStaff(db, "operations", "inbox.test");
      session.staff = { id: ops.id, email: ops.email, name: ops.name, role: "operations" };
      expect((await download(withFiles.id, "1")).status).toBe(403);
      const { rows } = await db.engine.query<{ outcome: string; target: string | null }>(
        "SELECT outcome, target FROM brokerdesk.audit_entries WHERE action = 'mail.download' ORDER BY seq",
      );
      expect(rows.map((r) => `${r.outcome}:${r.target ?? ""}`)).toEqual([
        `success:mail:${withFiles.id}`,
        `success:mail:${withFiles.id}`,
        `failure:mail:${withFiles.id}`,
        `failure:mail:${idOf("No files")}`,
        "failure:",
        "denied:",
      ]);
    });

    it("takes a mail with a file of a few megabytes, as a report of many accounts makes; refuses one over its limit", async () => {
      const fileOf = (bytes: number) => Uint8Array.from({ length: bytes }, (_, i) => (i * 31 + (i >> 8)) % 256);
      const mail = (subject: string, content: Uint8Array) => ({
        from: "reports@desk.test",
        to: "reader@desk.test",
        subject,
        text: "Attached: one file.\n",
        messageId: `<${subject.replace(/\W/g, "-")}@desk.test>`,
        headers: {},
        attachments: [{ filename: "commissions.pdf", contentType: "application/pdf", content }],
      });
      const exchange = async (maxBytes: number | undefined, send: (s: ReturnType<typeof smtpSender>) => Promise<void>) => {
        const smtp = await startEmbeddedSmtp(db.engine, { maxBytes });
        const sender = smtpSender(smtp.url);
        try {
          await send(sender);
        } finally {
          sender.close();
          await smtp.close();
        }
      };
      const big = fileOf(3 * 1024 * 1024);
      await exchange(undefined, (s) => s.send(mail("A large report", big)));
      await exchange(64 * 1024, async (s) => {
        await expect(s.send(mail("Over the limit", fileOf(100 * 1024)))).rejects.toThrow(/552/);
        await s.send(mail("Under the limit", fileOf(10 * 1024)));
      });
      const { mails } = await readInbox(db.engine);
      const subjects = mails.map((m) => m.subject);
      expect(subjects).toContain("Under the limit");
      expect(subjects).not.toContain("Over the limit");
      const { selected } = await readInbox(db.engine, mails.find((m) => m.subject === "A large report")!.id);
      expect(selected!.attachments).toEqual([{ n: 1, filename: "commissions.pdf", contentType: "application/pdf", size: big.length }]);
    });
  });
}
