import { beforeEach, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { STATUS_MAIL_OFF_MESSAGE } from "@/lib/status-mail";
import type { AppDb } from "@/server/db";
import { openEngine, type Engine } from "@/server/db/engine";
import { runOutboxPass, type OutboxDeps } from "@/server/status-mail/outbox";
import { confirmByToken, subscribe } from "@/server/status-mail/subscriptions";
import { mailTokenKey } from "@/server/status-mail/tokens";
import { testEngines, withEngineDb } from "../helpers/engines";
import { useSmtpServer } from "../helpers/smtp-senders";
import { until } from "../helpers/until";
import { JOBS } from "@/server/jobs/definitions";
import { startJobs } from "@/server/jobs/runtime";
import { probeDeps } from "../jobs/probe";

/**
 * The status mail's outbox against a real SMTP server started here, on both engines: who gets which mail of an
 * incident (debounced, once), a mail server that is down during a change, and two senders on one PostgreSQL server.
 * Incident rows are written directly, as the status facility writes them (migration 0090).
 */
const key = mailTokenKey("a-test-secret-of-enough-length");
const BASE = "http://desk.test";
const DEBOUNCE = 60_000;
const T0 = Date.parse("2026-11-25T10:00:00Z");

for (const engine of testEngines()) {
  describe(`status mail outbox (${engine.name})`, () => {
    let db: AppDb;
    withEngineDb(engine, (d) => {
      db = d;
    });
    const { smtp, openSender } = useSmtpServer();
    beforeEach(async () => {
      await db.engine.query(
        "TRUNCATE brokerdesk.status_mail_outbox, brokerdesk.status_subscriptions, brokerdesk.status_incidents, brokerdesk.status_mail_limits",
      );
      smtp.received.length = 0;
    });

    let clock = T0;
    const deps = (over: Partial<OutboxDeps> = {}): OutboxDeps => ({
      engine: db.engine,
      sender: openSender(),
      compose: { from: "status@desk.test", baseUrl: BASE, key },
      debounceMs: DEBOUNCE,
      now: () => new Date(clock),
      ...over,
    });
    const pass = (over: Partial<OutboxDeps> = {}) => runOutboxPass(deps(over));

    /** Subscribes through the form's path, reads the confirmation mail from the SMTP server and follows its link. */
    async function confirmedSubscriber(email: string, modules: string[]): Promise<void> {
      await subscribe(db.engine, { email, modules }, `10.0.0.${smtp.received.length + 1}`, new Date(clock));
      await pass();
      const mail = smtp.to(email).at(-1)!;
      expect(mail.subject).toBe("Confirm your Brokerdesk status subscription");
      const token = /\/status\/confirm\?token=(\S+)/.exec(mail.text)![1]!;
      expect(await confirmByToken(db.engine, key, token, new Date(clock))).toBeTruthy();
    }

    async function incident(module: string, startedAt: number, endedAt?: number): Promise<string> {
      const { rows } = await db.engine.query<{ id: string }>(
        "INSERT INTO brokerdesk.status_incidents (module, state, started_at, ended_at) VALUES ($1, 'outage', $2, $3) RETURNING id::text",
        [module, new Date(startedAt), endedAt ? new Date(endedAt) : null],
      );
      return rows[0]!.id;
    }
    const close = (id: string, at: number) =>
      db.engine.query("UPDATE brokerdesk.status_incidents SET ended_at = $2 WHERE id = $1::bigint", [id, new Date(at)]);
    const statusMails = (email: string) => smtp.to(email).filter((m) => m.subject.startsWith("[Brokerdesk status]"));

    it("sends a confirmed Order subscriber one opened and one resolved mail; Funding and unconfirmed addresses none", async () => {
      clock = T0;
      await confirmedSubscriber("order@desk.test", ["order"]);
      await confirmedSubscriber("funding@desk.test", ["funding"]);
      await subscribe(db.engine, { email: "unconfirmed@desk.test", modules: ["order"] }, "10.0.1.1", new Date(clock));

      const id = await incident("order", T0 + 1_000);
      clock = T0 + 1_000 + DEBOUNCE - 1;
      await pass();
      expect(statusMails("order@desk.test")).toHaveLength(0); // within the debounce

      clock = T0 + 1_000 + DEBOUNCE;
      expect((await pass()).sent).toBe(1);
      await pass();
      const [opened] = statusMails("order@desk.test");
      expect(statusMails("order@desk.test")).toHaveLength(1);
      expect(opened!.subject).toBe("[Brokerdesk status] Order: outage since 2026-11-25 10:00:01 UTC");
      expect(opened!.text).toContain("Module: Order");
      expect(opened!.text).toContain("State: outage");
      expect(opened!.text).toContain("Started: 2026-11-25 10:00:01 UTC");
      const unsubscribe = /Unsubscribe: (\S+)/.exec(opened!.text)![1]!;
      expect(unsubscribe).toMatch(new RegExp(`^${BASE}/status/unsubscribe\\?token=`));
      expect(opened!.header("list-unsubscribe")).toMatch(new RegExp(`^<${BASE}/api/status/unsubscribe\\?token=[\\w.-]+>$`));
      expect(opened!.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");

      await close(id, T0 + 200_000);
      clock = T0 + 200_001;
      await pass();
      await pass();
      const mails = statusMails("order@desk.test");
      expect(mails.map((m) => m.subject)).toEqual([opened!.subject, "[Brokerdesk status] Order: resolved"]);
      expect(mails[1]!.text).toContain("Ended: 2026-11-25 10:03:20 UTC");
      expect(statusMails("funding@desk.test")).toHaveLength(0);
      expect(smtp.to("unconfirmed@desk.test").map((m) => m.subject)).toEqual(["Confirm your Brokerdesk status subscription"]);
    });

    it("sends nothing for a flap shorter than the debounce", async () => {
      clock = T0;
      await confirmedSubscriber("order@desk.test", ["order"]);
      await incident("order", T0 + 1_000, T0 + 1_000 + DEBOUNCE - 1);
      clock = T0 + 10 * DEBOUNCE;
      const r = await pass();
      expect(r).toEqual({ queued: 0, sent: 0, skipped: 0, deferred: 0 });
      expect(statusMails("order@desk.test")).toHaveLength(0);
    });

    it("without a public address for its links, status mail is off: no incident's mail is queued, a confirmation waits, a report's mail goes", async () => {
      clock = T0;
      await confirmedSubscriber("order@desk.test", ["order"]);
      await subscribe(db.engine, { email: "waiting@desk.test", modules: ["order"] }, "10.0.2.1", new Date(clock));
      await incident("order", T0 + 1_000);
      const { rows } = await db.engine.query<{ id: string }>(
        `INSERT INTO brokerdesk.report_runs (schedule_name, kind, format, slot, report_day, trigger, status)
         VALUES ('No links', 'alerts', 'csv', $1, '2026-11-24', 'request', 'done') RETURNING id::text`,
        [new Date(T0)],
      );
      await db.engine.query(
        `INSERT INTO brokerdesk.status_mail_outbox (kind, recipient, subject, body, report_run_id, created_at, next_attempt_at)
         VALUES ('report', 'boss@desk.test', 'A report', 'Rows: 0', $1::bigint, $2, $2)`,
        [rows[0]!.id, new Date(T0)],
      );
      try {
        clock = T0 + 1_000 + DEBOUNCE;
        const off = { compose: { from: "status@desk.test", baseUrl: undefined, key } };
        expect(await pass(off)).toEqual({ queued: 0, sent: 1, skipped: 0, deferred: 0 });
        expect(smtp.to("boss@desk.test").map((m) => m.subject)).toEqual(["A report"]);
        expect(smtp.to("waiting@desk.test")).toHaveLength(0);
        expect(statusMails("order@desk.test")).toHaveLength(0);
        expect(smtp.received.some((m) => /localhost/.test(m.text))).toBe(false);
        // Once the address is configured, what waited goes, its links naming it.
        expect(await pass()).toMatchObject({ queued: 1, sent: 2 });
        expect(smtp.to("waiting@desk.test")[0]!.text).toContain(`${BASE}/status/confirm?token=`);
        expect(statusMails("order@desk.test")).toHaveLength(1);
      } finally {
        await db.engine.query("DELETE FROM brokerdesk.status_mail_outbox WHERE kind = 'report'");
        await db.engine.query("DELETE FROM brokerdesk.report_runs WHERE id = $1::bigint", [rows[0]!.id]);
      }
    });

    it("a subscription is refused while status mail is off (a real upstream and no AUTH_URL), and taken with AUTH_URL", async () => {
      const upstream = {
        BROKER_BASE_URL: "https://broker.example.com",
        BROKER_APP_KEY: "k",
        BROKER_APP_SECRET: "s",
        AUTH_SECRET: "a-test-secret-of-enough-length",
      };
      const input = { email: "someone@desk.test", modules: ["order"] };
      await expect(subscribe(db.engine, input, "10.0.3.1", new Date(T0), parseEnv(upstream))).rejects.toMatchObject({
        code: "MAIL_OFF",
        userMessage: STATUS_MAIL_OFF_MESSAGE,
      });
      const queued = async () =>
        (await db.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM brokerdesk.status_mail_outbox")).rows[0]!.n;
      expect(await queued()).toBe(0);
      await subscribe(db.engine, input, "10.0.3.1", new Date(T0), parseEnv({ ...upstream, AUTH_URL: "https://desk.example.com" }));
      expect(await queued()).toBe(1);
    });

    it("waits out the debounce again after an escalation, so the first mail names the outage, not its degraded start", async () => {
      clock = T0;
      await confirmedSubscriber("order@desk.test", ["order"]);
      const escalatedAt = T0 + 1_000 + DEBOUNCE / 2;
      await db.engine.query(
        "INSERT INTO brokerdesk.status_incidents (module, state, started_at, escalated_at) VALUES ('order', 'outage', $1, $2)",
        [new Date(T0 + 1_000), new Date(escalatedAt)],
      );
      clock = T0 + 1_000 + DEBOUNCE;
      expect((await pass()).queued).toBe(0);
      clock = escalatedAt + DEBOUNCE;
      expect((await pass()).sent).toBe(1);
      expect(statusMails("order@desk.test").map((m) => m.subject)).toEqual([
        "[Brokerdesk status] Order: outage since 2026-11-25 10:00:01 UTC",
      ]);
    });

    it("tells a subscriber told of a degraded module of its outage once it lasts, then of its end", async () => {
      clock = T0;
      await confirmedSubscriber("order@desk.test", ["order"]);
      const { rows } = await db.engine.query<{ id: string }>(
        "INSERT INTO brokerdesk.status_incidents (module, state, started_at) VALUES ('order', 'degraded', $1) RETURNING id::text",
        [new Date(T0 + 1_000)],
      );
      const id = rows[0]!.id;
      clock = T0 + 1_000 + DEBOUNCE;
      expect((await pass()).sent).toBe(1);
      const escalatedAt = clock + 5_000;
      await db.engine.query("UPDATE brokerdesk.status_incidents SET state = 'outage', escalated_at = $2 WHERE id = $1::bigint", [
        id,
        new Date(escalatedAt),
      ]);
      clock = escalatedAt + DEBOUNCE - 1;
      expect((await pass()).queued).toBe(0); // the outage within its debounce
      clock = escalatedAt + DEBOUNCE;
      expect((await pass()).sent).toBe(1);
      await close(id, clock + 1_000);
      clock += 2_000;
      await pass();
      await pass();
      const mails = statusMails("order@desk.test");
      expect(mails.map((m) => m.subject)).toEqual([
        "[Brokerdesk status] Order: degraded since 2026-11-25 10:00:01 UTC",
        "[Brokerdesk status] Order: outage since 2026-11-25 10:01:06 UTC",
        "[Brokerdesk status] Order: resolved",
      ]);
      expect(mails[1]!.text).toContain("State: outage (was degraded)");
      expect(mails[1]!.text).toContain("Started: 2026-11-25 10:00:01 UTC");
      expect(mails[2]!.text).toContain("State: operational (was outage)");
    });

    it("sends no escalation for an outage shorter than the debounce", async () => {
      clock = T0;
      await confirmedSubscriber("order@desk.test", ["order"]);
      const { rows } = await db.engine.query<{ id: string }>(
        "INSERT INTO brokerdesk.status_incidents (module, state, started_at) VALUES ('order', 'degraded', $1) RETURNING id::text",
        [new Date(T0)],
      );
      clock = T0 + DEBOUNCE;
      expect((await pass()).sent).toBe(1);
      await db.engine.query(
        "UPDATE brokerdesk.status_incidents SET state = 'outage', escalated_at = $2, ended_at = $3 WHERE id = $1::bigint",
        [rows[0]!.id, new Date(clock + 1_000), new Date(clock + DEBOUNCE)],
      );
      clock += 10 * DEBOUNCE;
      await pass();
      await pass();
      expect(statusMails("order@desk.test").map((m) => m.subject)).toEqual([
        "[Brokerdesk status] Order: degraded since 2026-11-25 10:00:00 UTC",
        "[Brokerdesk status] Order: resolved",
      ]);
    });

    it("retries while the SMTP server is down and delivers the mail once when it is back", async () => {
      clock = T0;
      await confirmedSubscriber("order@desk.test", ["order"]);
      await incident("order", T0);
      await smtp.stop();
      try {
        clock = T0 + DEBOUNCE;
        const backoff = { baseMs: 5_000, maxMs: 5_000, jitter: "equal" as const };
        const down = await pass({ backoff });
        expect(down).toMatchObject({ queued: 1, sent: 0, deferred: 1 });
        clock += 1_000; // before its retry time: not tried again
        expect((await pass({ backoff })).deferred).toBe(0);
        await smtp.start();
        clock += 10_000;
        expect((await pass({ backoff })).sent).toBe(1);
        expect((await pass({ backoff })).sent).toBe(0);
      } finally {
        await smtp.start().catch(() => undefined);
      }
      expect(statusMails("order@desk.test")).toHaveLength(1);
    });

    it("the status-mail job starts with the job system and sends a due mail within seconds", async () => {
      clock = Date.now();
      await confirmedSubscriber("order@desk.test", ["order"]);
      await incident("order", Date.now() - 10 * DEBOUNCE);
      const jobs = await startJobs({
        deps: { ...probeDeps(db), mail: deps({ now: undefined }) },
        jobs: [JOBS.statusMail],
        pollingIntervalSeconds: 0.5,
      });
      try {
        await until(() => statusMails("order@desk.test").length === 1, 20_000, "the job's mail");
      } finally {
        await jobs.stop();
      }
      expect(statusMails("order@desk.test")).toHaveLength(1);
    });

    if (engine.name === "postgres") {
      it("sends each mail once with two senders on one PostgreSQL server", async () => {
        clock = T0;
        const n = 40;
        const emails = Array.from({ length: n }, (_, i) => `s${i}@desk.test`);
        await db.engine.query(
          `INSERT INTO brokerdesk.status_subscriptions (email, modules, confirmed_at)
           SELECT unnest($1::text[]), '{order}', $2`,
          [emails, new Date(T0 - 1_000)],
        );
        await incident("order", T0);
        clock = T0 + DEBOUNCE;
        // A second process: its own pool on the same database.
        const { rows } = await db.engine.query<{ db: string }>("SELECT current_database() AS db");
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${rows[0]!.db}`;
        const other: Engine = await openEngine({ url: url.toString(), poolSize: 2 });
        try {
          // The interleaving is fixed: the first sender holds its first claim until the second has sent a mail.
          const first = openSender();
          const second = openSender();
          let secondSent = 0;
          const held: OutboxDeps["sender"] = {
            send: async (m) => {
              await until(() => secondSent > 0, 20_000, "the second sender's first mail");
              await first.send(m);
            },
          };
          const counted: OutboxDeps["sender"] = { send: (m) => second.send(m).then(() => void secondSent++) };
          const [a, b] = await Promise.all([pass({ batch: 3, sender: held }), pass({ engine: other, batch: 3, sender: counted })]);
          expect(a.sent + b.sent).toBe(n);
          expect(a.sent).toBeGreaterThan(0);
          expect(b.sent).toBeGreaterThan(0);
        } finally {
          await other.close();
        }
        const got = smtp.received.filter((m) => m.subject.startsWith("[Brokerdesk status]"));
        expect(got).toHaveLength(n);
        expect(new Set(got.map((m) => m.to[0])).size).toBe(n);
        expect(new Set(got.map((m) => m.messageId)).size).toBe(n);
      });
    }
  });
}
