import { extractText } from "unpdf";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReportKind, ReportScheduleValues } from "@/lib/schemas/reports";
import { GET as downloadRoute } from "@/app/api/reports/runs/[runId]/file/route";
import { GET as runsRoute } from "@/app/api/reports/runs/route";
import { createReportSchedule } from "@/server/actions/reports";
import type { AppDb } from "@/server/db";
import { JOBS, type JobDeps } from "@/server/jobs/definitions";
import { renderReport } from "@/server/reports/render";
import { listReportRuns, queueDueRuns, requestReportRun } from "@/server/reports/run";
import { createSchedule, editSchedule } from "@/server/reports/schedules";
import { dueSlots, latestSlot, nextSlot, reportDayOf } from "@/server/reports/slots";
import { runOutboxPass } from "@/server/status-mail/outbox";
import { mailTokenKey } from "@/server/status-mail/tokens";
import { parseCsv } from "../helpers/csv";
import { testEngines, withProcessDb } from "../helpers/engines";
import { useSmtpServer } from "../helpers/smtp-senders";
import { session } from "../helpers/desk-session";
import { newStaff } from "../helpers/staff";

/**
 * Scheduled reports on both engines: each kind's figures from rows written into the books here, the `reports` job
 * mailing a due schedule's CSV and PDF through the status mail's outbox to a real SMTP server (once a slot), and
 * the schedule action refusing a recipient who is not enabled staff.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));

const D = "2026-11-20";
const at = (day: string, time: string) => new Date(`${day}T${time}Z`);
const csvOf = (bytes: Uint8Array) => parseCsv(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""));

describe("report slots", () => {
  it("runs daily or for the weekdays at the UTC time; a run covers the day before, so weekdays report Monday to Friday", () => {
    const sat = at("2026-11-21", "12:00:00");
    expect(latestSlot({ cadence: "daily", atTime: "06:30" }, sat).toISOString()).toBe("2026-11-21T06:30:00.000Z");
    // Saturday's slot reports on Friday; Sunday's and Monday's would report on the weekend.
    expect(latestSlot({ cadence: "weekdays", atTime: "06:30" }, sat).toISOString()).toBe("2026-11-21T06:30:00.000Z");
    expect(latestSlot({ cadence: "daily", atTime: "18:00" }, sat).toISOString()).toBe("2026-11-20T18:00:00.000Z");
    expect(nextSlot({ cadence: "weekdays", atTime: "06:30" }, sat).toISOString()).toBe("2026-11-24T06:30:00.000Z");
    expect(reportDayOf(at("2026-11-23", "06:30:00"))).toBe("2026-11-22");
  });

  it("owes the slots since it was made and since its last run, oldest first, at most the latest few", () => {
    const mon = at("2026-11-23", "12:00:00");
    const weekdays = { cadence: "weekdays" as const, atTime: "06:30" };
    const iso = (slots: Date[]) => slots.map((d) => d.toISOString().slice(0, 10));
    expect(iso(dueSlots(weekdays, mon, at("2026-11-18", "00:00:00"), null, 7))).toEqual(["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"]);
    expect(iso(dueSlots(weekdays, mon, at("2026-11-18", "00:00:00"), at("2026-11-19", "06:30:00"), 7))).toEqual(["2026-11-20", "2026-11-21"]);
    expect(iso(dueSlots(weekdays, mon, at("2026-11-18", "00:00:00"), null, 2))).toEqual(["2026-11-20", "2026-11-21"]);
    // A whole week of them reports on Monday to Friday, never a weekend day.
    const week = dueSlots(weekdays, at("2026-11-29", "12:00:00"), at("2026-11-23", "00:00:00"), null, 7).map(reportDayOf);
    expect(week).toEqual(["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"]);
    expect(dueSlots(weekdays, mon, at("2026-11-23", "06:30:01"), null, 7)).toEqual([]);
    expect(dueSlots(weekdays, mon, at("2026-11-01", "00:00:00"), at("2026-11-23", "06:30:00"), 7)).toEqual([]);
  });
});

for (const engine of testEngines()) {
  describe(`scheduled reports (${engine.name})`, () => {
    let db: AppDb;
    withProcessDb(engine, (d) => (db = d));
    const sql = (text: string, params: unknown[] = []) => db.engine.query(text, params);

    describe("figures", () => {
      beforeAll(async () => {
        await sql(`INSERT INTO brokerdesk.account_directory (account_id, account_number) VALUES ('a-1', 'ACC-A'), ('b-2', 'ACC-B')`);
        const mv = (
          crid: string,
          kind: string,
          o: { account?: string; from?: string; to?: string; amount?: string; currency?: string; toAmount?: string; toCurrency?: string },
          status: string,
          created: Date,
        ) =>
          sql(
            `INSERT INTO brokerdesk.money_movements (kind, client_request_id, account_id, from_account, to_account, amount, currency,
               to_amount, to_currency, status, created_at, updated_at, last_event_seq)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, 1)`,
            [kind, crid, o.account ?? null, o.from ?? null, o.to ?? null, o.amount ?? null, o.currency ?? null, o.toAmount ?? null, o.toCurrency ?? null, status, created],
          );
        await mv("m1", "INSTANT_FUNDING", { account: "a-1", amount: "1000.00", currency: "USD" }, "COMPLETED", at(D, "09:00:00"));
        await mv("m2", "CASH_JOURNAL", { from: "a-1", to: "b-2", amount: "250.50", currency: "USD" }, "COMPLETED", at(D, "10:00:00"));
        await mv("m3", "FX_EXCHANGE", { account: "a-1", amount: "100", currency: "USD", toAmount: "781.20", toCurrency: "HKD" }, "COMPLETED", at(D, "11:00:00"));
        await mv("m4", "INSTANT_EXCHANGE", { account: "b-2", amount: "50", currency: "USD", toAmount: "390.60", toCurrency: "HKD" }, "COMPLETED", at(D, "12:00:00"));
        await mv("m5", "FX_EXCHANGE", { account: "a-1", amount: "1000", currency: "HKD", toAmount: "128", toCurrency: "USD" }, "REJECTED", at(D, "13:00:00"));
        await mv("m6", "INSTANT_FUNDING", { account: "a-1", amount: "5", currency: "USD" }, "COMPLETED", at("2026-11-19", "23:59:59"));
        await mv("m7", "INSTANT_FUNDING", { account: "a-1", amount: "7", currency: "USD" }, "COMPLETED", at("2026-11-21", "00:00:00"));

        const order = (account: string, coid: string, market: string, side: string) =>
          sql(
            `INSERT INTO brokerdesk.orders (account_id, client_order_id, symbol, market, instrument_type, side, status, updated_at, last_event_seq)
             VALUES ($1, $2, 'X', $3, 'EQUITY', $4, 'FILLED', now(), 1)`,
            [account, coid, market, side],
          );
        await order("a-1", "o1", "US", "BUY");
        await order("a-1", "o2", "US", "SELL");
        await order("b-2", "o3", "HK", "BUY");
        const fill = (key: string, account: string, coid: string, side: string, qty: string, price: string, commission: string, fees: unknown, filled: Date) =>
          sql(
            `INSERT INTO brokerdesk.executions (execution_key, event_seq, account_id, client_order_id, side, quantity, price, commission, fees, filled_at)
             VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
            [key, account, coid, side, qty, price, commission, fees === null ? null : JSON.stringify(fees), filled],
          );
        await fill("e1", "a-1", "o1", "BUY", "10", "100", "1.5", [{ amount: "0.25" }], at(D, "14:00:00"));
        await fill("e2", "a-1", "o2", "SELL", "4", "101", "1", null, at(D, "15:00:00"));
        await fill("e3", "b-2", "o3", "BUY", "100", "50", "20", [{ actual_value: "3.5" }], at(D, "03:00:00"));
        await fill("e4", "a-1", "o1", "BUY", "1", "100", "9", null, at("2026-11-19", "14:00:00"));

        const rule = (await db.engine.query<{ id: string }>(`SELECT id::text AS id FROM brokerdesk.surveillance_rules ORDER BY id LIMIT 1`)).rows[0]!.id;
        const alert = (subject: string, raised: Date, status: string, decided: Date | null) =>
          sql(
            `INSERT INTO brokerdesk.alerts (rule_id, subject, account_id, summary, occurred_at, raised_at, status, decided_at, decided_by)
             VALUES ($1::bigint, $2, 'a-1', $2, $3, $3, $4, $5, $6)`,
            [rule, subject, raised, status, decided, decided ? "compliance@desk.test" : null],
          );
        await alert("raised that day", at(D, "08:00:00"), "open", null);
        await alert("cleared that day", at("2026-11-18", "08:00:00"), "cleared", at(D, "15:00:00"));
        await alert("raised and escalated", at(D, "09:00:00"), "escalated", at(D, "16:00:00"));
        await alert("older", at("2026-11-17", "08:00:00"), "open", null);

        await sql(`INSERT INTO brokerdesk.reconciliation_runs (id, trigger, status) VALUES (1, 'schedule', 'done')`);
        // The day's last run with its summary (an earlier one that day, and one the next day, are not it).
        const run = (id: number, finished: Date, found: number, usdUpstream: string) =>
          sql(
            `INSERT INTO brokerdesk.reconciliation_runs (id, trigger, status, finished_at, summary) VALUES ($1, 'schedule', 'done', $2, $3)`,
            [
              id,
              finished,
              JSON.stringify({
                accounts: 41,
                compared: 40,
                notCompared: [{ accountId: "a-9", accountNumber: "ACC-9", reason: "balance or positions not read: timeout" }],
                omnibus: [{ currency: "USD", masterDesk: "1000", masterUpstream: "1000", virtualDesk: "500.5", virtualUpstream: usdUpstream }],
                found,
                opened: found,
                open: found,
              }),
            ],
          );
        await run(2, at(D, "08:12:00"), 3, "500.5");
        await run(3, at(D, "21:14:00"), 1, "490.5");
        await run(4, at("2026-11-21", "08:12:00"), 7, "500.5");
        const brk = (subject: string, opened: Date, closed: Date | null) =>
          sql(
            `INSERT INTO brokerdesk.reconciliation_breaks (kind, subject, account_id, account_number, currency, desk_value, upstream_value,
               difference, summary, status, first_run_id, last_run_id, opened_at, closed_at)
             VALUES ('cash', $1, 'a-1', 'ACC-A', 'USD', 100, 90, 10, $1, $2, 1, 1, $3, $4)`,
            [subject, closed ? "closed" : "open", opened, closed],
          );
        await brk("open from before", at("2026-11-18", "21:10:00"), null);
        await brk("opened and closed that day", at(D, "05:00:00"), at(D, "18:00:00"));
        await brk("closed the day before", at("2026-11-15", "21:10:00"), at("2026-11-19", "10:00:00"));
        // Closed after the day, before the report ran: open at the day's end, as the report tells it.
        await brk("closed the next morning", at("2026-11-19", "12:00:00"), at("2026-11-21", "05:00:00"));
        await brk("opened the day after", at("2026-11-21", "08:10:00"), null);
      });

      const csv = async (kind: ReportKind) => {
        const r = await renderReport(db.engine, { kind, format: "csv", name: "t" }, D, at("2026-11-21", "06:00:00"));
        const [header, ...rows] = csvOf(r.content);
        expect(r.rows).toBe(rows.length);
        expect(r.fileName).toBe(`${kind.replace(/_/g, "-")}-${D}.csv`);
        return { header: header!, rows, summary: Object.fromEntries(r.summary) };
      };

      it("daily movements: the day's movements, oldest first, account numbers from the directory", async () => {
        const r = await csv("daily_movements");
        expect(r.header.slice(0, 3)).toEqual(["Time (UTC)", "Kind", "Account"]);
        expect(r.rows.map((c) => [c[1], c[2], c[3], c[4], c[6], c[7], c[12]])).toEqual([
          ["INSTANT_FUNDING", "ACC-A", "", "", "1000", "USD", "COMPLETED"],
          ["CASH_JOURNAL", "", "ACC-A", "ACC-B", "250.5", "USD", "COMPLETED"],
          ["FX_EXCHANGE", "ACC-A", "", "", "100", "USD", "COMPLETED"],
          ["INSTANT_EXCHANGE", "ACC-B", "", "", "50", "USD", "COMPLETED"],
          ["FX_EXCHANGE", "ACC-A", "", "", "1000", "HKD", "REJECTED"],
        ]);
        expect(r.rows[0]![0]).toBe("2026-11-20T09:00:00.000Z");
        expect(r.summary).toEqual({ Movements: "5", Completed: "4" });
      });

      it("FX volume: completed exchanges of the day by pair", async () => {
        const r = await csv("fx_volume");
        expect(r.header).toEqual(["Sold currency", "Bought currency", "Exchanges", "Amount sold", "Amount bought"]);
        expect(r.rows).toEqual([["USD", "HKD", "2", "150", "1171.8"]]);
      });

      it("commissions by account: the day's executions by account and currency", async () => {
        const r = await csv("commissions_by_account");
        expect(r.rows).toEqual([
          ["ACC-A", "USD", "2", "1404", "2.5", "0.25"],
          ["ACC-B", "HKD", "1", "5000", "20", "3.5"],
        ]);
      });

      it("alerts: raised or decided that day, with the day's counts", async () => {
        const r = await csv("alerts");
        expect(r.rows.map((c) => [c[7], c[3], c[5] ? c[5].slice(0, 10) : ""])).toEqual([
          ["raised that day", "open", ""],
          ["cleared that day", "cleared", D],
          ["raised and escalated", "escalated", D],
        ]);
        expect(r.summary).toEqual({ Opened: "2", Cleared: "1", Escalated: "1" });
      });

      it("reconciliation breaks: open at some moment of the day", async () => {
        const r = await csv("reconciliation_breaks");
        expect(r.rows.map((c) => [c[11], c[2], c[4], c[5], c[6], c[7]])).toEqual([
          ["open from before", "ACC-A", "100", "90", "10", "open"],
          ["opened and closed that day", "ACC-A", "100", "90", "10", "closed"],
          ["closed the next morning", "ACC-A", "100", "90", "10", "closed"],
        ]);
        expect(r.summary).toMatchObject({
          "Open during the day": "3",
          "Opened that day": "1",
          "Closed that day": "1",
          "Open at the day's end": "2",
          "Last reconciliation run": `#3, finished ${D}T21:14:00.000Z: 40 of 41 accounts compared, 1 break found (1 new)`,
          "Omnibus USD": "books 1500.5, upstream 1490.5, difference -10",
          "Not compared: ACC-9": "balance or positions not read: timeout",
        });
      });

      it("a PDF of each kind is a PDF with the day's figures", async () => {
        const r = await renderReport(db.engine, { kind: "commissions_by_account", format: "pdf", name: "Desk" }, D, at("2026-11-21", "06:00:00"));
        expect(Buffer.from(r.content).subarray(0, 5).toString()).toBe("%PDF-");
        const { text } = await extractText(r.content, { mergePages: true });
        expect(text).toContain("Commissions by account 2026-11-20");
        expect(text).toContain("1,404.00");
        expect(text).toContain("5,000.00");
      });
    });

    describe("the job and the outbox", () => {
      const { smtp, openSender } = useSmtpServer();
      beforeEach(() => {
        smtp.received.length = 0;
      });
      const pass = () =>
        runOutboxPass({
          engine: db.engine,
          sender: openSender(),
          compose: { from: "reports@desk.test", baseUrl: "http://desk.test", key: mailTokenKey("a-test-secret-of-enough-length") },
          debounceMs: 60_000,
        });
      const job = () =>
        JOBS.reports.run({}, { db, log: () => undefined } as unknown as JobDeps, new Map(), new AbortController().signal);
      /** An enabled schedule of `by`'s: alerts as CSV every day at 00:01 unless `input` says otherwise. */
      const schedule = (by: string, input: Partial<ReportScheduleValues> & Pick<ReportScheduleValues, "name" | "recipients">, made?: Date) =>
        createSchedule(db.engine, { kind: "alerts", format: "csv", cadence: "daily", atTime: "00:01", enabled: true, ...input }, by, made);

      it("mails a due schedule's CSV and PDF to each recipient once a slot, and the history says sent", async () => {
        const admin = await newStaff(db, "admin", "reports.test");
        const ops = await newStaff(db, "operations", "reports.test");
        const when = { cadence: "daily" as const, atTime: "00:01" };
        // Made a minute before its latest slot: that slot is the one it owes.
        const made = new Date(latestSlot(when, new Date()).getTime() - 60_000);
        const day = reportDayOf(latestSlot(when, new Date()));
        await sql(
          `INSERT INTO brokerdesk.money_movements (kind, client_request_id, account_id, amount, currency, status, created_at, updated_at, last_event_seq)
           VALUES ('INSTANT_FUNDING', 'job-1', 'a-1', '42.10', 'USD', 'COMPLETED', $1, $1, 1)`,
          [at(day, "12:34:56")],
        );
        const csvSchedule = await createSchedule(
          db.engine,
          { name: "Ops movements", kind: "daily_movements", format: "csv", ...when, recipients: [admin.email, ops.email], enabled: true },
          admin.email,
          made,
        );
        await createSchedule(
          db.engine,
          { name: "FX desk", kind: "fx_volume", format: "pdf", ...when, recipients: [admin.email], enabled: true },
          admin.email,
          made,
        );
        await createSchedule(
          db.engine,
          { name: "Switched off", kind: "alerts", format: "csv", ...when, recipients: [admin.email], enabled: false },
          admin.email,
          made,
        );

        expect((await job()).output).toMatchObject({ queued: 2, runs: 2 });
        expect(await pass()).toMatchObject({ sent: 3, deferred: 0 });

        const [toOps] = smtp.to(ops.email);
        expect(smtp.to(ops.email)).toHaveLength(1);
        expect(toOps!.subject).toBe(`[Brokerdesk report] Ops movements: Daily movements ${day}`);
        expect(toOps!.text).toContain(`Daily movements for ${day} (UTC day)`);
        const attachment = toOps!.attachments[0]!;
        expect(attachment.filename).toBe(`daily-movements-${day}.csv`);
        expect(attachment.contentType).toBe("text/csv");
        const [header, ...rows] = csvOf(attachment.content);
        expect(header!.slice(0, 2)).toEqual(["Time (UTC)", "Kind"]);
        expect(rows).toHaveLength(1);
        expect([rows[0]![0], rows[0]![1], rows[0]![2], rows[0]![6], rows[0]![7]]).toEqual([
          `${day}T12:34:56.000Z`,
          "INSTANT_FUNDING",
          "ACC-A",
          "42.1",
          "USD",
        ]);

        const toAdmin = smtp.to(admin.email);
        expect(toAdmin.map((m) => m.subject).sort()).toEqual([
          `[Brokerdesk report] FX desk: FX volume ${day}`,
          `[Brokerdesk report] Ops movements: Daily movements ${day}`,
        ]);
        const pdf = toAdmin.find((m) => m.subject.includes("FX desk"))!.attachments[0]!;
        expect(pdf.filename).toBe(`fx-volume-${day}.pdf`);
        expect(pdf.content.subarray(0, 5).toString()).toBe("%PDF-");

        // The same slot again: nothing queued, nothing mailed.
        expect((await job()).output).toMatchObject({ queued: 0, runs: 0 });
        expect((await pass()).sent).toBe(0);
        expect(smtp.received).toHaveLength(3);

        const { runs } = await listReportRuns(db.engine);
        const run = runs.find((r) => r.scheduleId === csvSchedule.id)!;
        expect(runs).toHaveLength(2);
        expect(run).toMatchObject({ status: "sent", rows: 1, reportDay: day, trigger: "schedule", mailsSent: 2 });
        expect(run.recipients).toEqual([admin.email, ops.email].sort());
      });

      it("a desk that was down runs the slots it missed, oldest first, at most the latest seven", async () => {
        const admin = await newStaff(db, "admin", "reports.test");
        const monday = at("2026-11-23", "12:00:00");
        const recipients = [admin.email];
        const missed = await schedule(admin.email, { name: "Missed days", cadence: "weekdays", atTime: "06:30", recipients }, at("2026-11-18", "00:00:00"));
        const longAgo = await schedule(admin.email, { name: "Down for a month", atTime: "06:30", recipients }, at("2026-10-20", "00:00:00"));
        try {
          // Run now on the Thursday: not a scheduled slot, so Thursday's slot is still owed.
          await requestReportRun(db.engine, missed.id, admin.email, at("2026-11-19", "08:00:00"));

          expect(await queueDueRuns(db.engine, monday)).toBe(4 + 7);
          const runs = (await listReportRuns(db.engine, { limit: 50 })).runs.reverse();
          const days = (id: number) => runs.filter((r) => r.scheduleId === id && r.trigger === "schedule").map((r) => r.reportDay);
          expect(days(missed.id)).toEqual(["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"]);
          expect(days(longAgo.id)).toEqual(["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"]);
          // Once run, nothing is owed until the next slot.
          expect(await queueDueRuns(db.engine, monday)).toBe(0);
          expect(await queueDueRuns(db.engine, at("2026-11-24", "06:30:00"))).toBe(2);
        } finally {
          // Left behind, the queued runs (and the slots after these) would be worked by the next tests' runs of the job.
          await sql(`DELETE FROM brokerdesk.report_runs WHERE schedule_id = ANY ($1::bigint[])`, [[missed.id, longAgo.id]]);
          await sql(`DELETE FROM brokerdesk.report_schedules WHERE id = ANY ($1::bigint[])`, [[missed.id, longAgo.id]]);
        }
      });

      it("Run now mails at once to the recipients still enabled; an edit applies from the next slot", async () => {
        const admin = await newStaff(db, "admin", "reports.test");
        const leaver = await newStaff(db, "compliance", "reports.test");
        const when = { cadence: "daily" as const, atTime: "00:01" };
        const s = await createSchedule(
          db.engine,
          { name: "Alerts daily", kind: "alerts", format: "csv", ...when, recipients: [admin.email, leaver.email], enabled: true },
          admin.email,
        );
        // Made now: its latest slot is past, so the job queues nothing for it until the next one.
        expect((await job()).output).toMatchObject({ queued: 0, runs: 0 });

        await sql(`UPDATE brokerdesk.staff_users SET disabled = true WHERE email = $1`, [leaver.email]);
        const { id } = await requestReportRun(db.engine, s.id, admin.email);
        expect((await job()).output).toMatchObject({ queued: 0, runs: 1 });
        await pass();
        expect(smtp.to(admin.email).map((m) => m.subject)).toEqual([`[Brokerdesk report] Alerts daily: Alerts opened and cleared ${reportDayOf(new Date())}`]);
        expect(smtp.to(leaver.email)).toHaveLength(0);
        const run = (await listReportRuns(db.engine)).runs.find((r) => r.id === id)!;
        expect(run).toMatchObject({ status: "sent", trigger: "request", requestedBy: admin.email, recipients: [admin.email] });

        // Edited after today's slot passed: that slot is not run for the edit; the next one is.
        const edited = await editSchedule(db.engine, s.id, { ...s, atTime: "00:00", recipients: [admin.email] });
        expect(Date.parse(edited.nextAt!)).toBeGreaterThan(Date.now());
        expect((await job()).output).toMatchObject({ queued: 0 });
      });

      it("an admin downloads a run's file, the one its mails carried; others are refused, a run without a file is 404", async () => {
        const admin = await newStaff(db, "admin", "reports.test");
        const ops = await newStaff(db, "operations", "reports.test");
        const s = await schedule(admin.email, { name: "FX for download", kind: "fx_volume", format: "pdf", recipients: [ops.email] });
        const { id } = await requestReportRun(db.engine, s.id, admin.email);
        // Its only recipient leaves before the run: the run fails without a file.
        const lonely = await schedule(admin.email, { name: "Nobody left", kind: "daily_movements", recipients: [ops.email] });
        await job();
        await pass();
        const [mailed] = smtp.to(ops.email).map((m) => m.attachments[0]!);
        await sql(`UPDATE brokerdesk.staff_users SET disabled = true WHERE email = $1`, [ops.email]);
        const { id: failedId } = await requestReportRun(db.engine, lonely.id, admin.email);
        await job();
        expect((await listReportRuns(db.engine)).runs.find((r) => r.id === failedId)).toMatchObject({ status: "failed", fileName: null });

        const download = (runId: string) =>
          downloadRoute(new Request(`http://desk.test/api/reports/runs/${runId}/file`), { params: Promise.resolve({ runId }) });
        session.staff = { id: admin.id, email: admin.email, name: admin.name, role: "admin" };
        const ok = await download(String(id));
        expect(ok.status).toBe(200);
        expect(ok.headers.get("content-type")).toBe("application/pdf");
        expect(ok.headers.get("content-disposition")).toBe(`attachment; filename="${mailed!.filename}"`);
        expect(Buffer.from(await ok.arrayBuffer()).equals(mailed!.content)).toBe(true);
        expect((await download(String(failedId))).status).toBe(404);
        expect((await download("999999")).status).toBe(404);
        expect((await download("first")).status).toBe(400);
        const reviewer = await newStaff(db, "compliance", "reports.test");
        session.staff = { id: reviewer.id, email: reviewer.email, name: reviewer.name, role: "compliance" };
        expect((await download(String(id))).status).toBe(403);

        const { rows } = await sql(
          `SELECT outcome, target, actor_email FROM brokerdesk.audit_entries WHERE action = 'reports.download' ORDER BY seq`,
        );
        expect(rows.map((r) => `${r.outcome}:${r.target ?? ""}:${r.actor_email}`)).toEqual([
          `success:report-run:${id}:${admin.email}`,
          `failure:report-run:${failedId}:${admin.email}`,
          `failure:report-run:999999:${admin.email}`,
          `failure::${admin.email}`,
          `denied::${reviewer.email}`,
        ]);
      });

      it("the history reads a page at a time, newest first, to the oldest run", async () => {
        const admin = await newStaff(db, "admin", "reports.test");
        const s = await schedule(admin.email, { name: "Paged", recipients: [admin.email] });
        try {
          const ids: number[] = [];
          for (let k = 0; k < 35; k++) ids.push((await requestReportRun(db.engine, s.id, admin.email, new Date(Date.UTC(2026, 9, 1, 0, k)))).id);
          const mine = (runs: { id: number }[]) => runs.map((r) => r.id).filter((id) => ids.includes(id));
          const newestFirst = [...ids].reverse();

          session.staff = { id: admin.id, email: admin.email, name: admin.name, role: "admin" };
          const get = (query: string) => runsRoute(new Request(`http://desk.test/api/reports/runs${query}`), { params: Promise.resolve({}) });
          const read = async (query: string) => (await get(query)).json();
          const first = await read("");
          expect(first.runs).toHaveLength(30);
          expect(first.next).toBe(first.runs[29].id);
          const rest = await read(`?before=${first.next}`);
          expect(rest.next).toBeNull();
          expect([...mine(first.runs), ...mine(rest.runs)]).toEqual(newestFirst);
          expect((await get("?before=last")).status).toBe(400);
        } finally {
          // Queued, they would be worked by the next tests' runs of the job.
          await sql(`DELETE FROM brokerdesk.report_runs WHERE schedule_id = $1`, [s.id]);
          await sql(`DELETE FROM brokerdesk.report_schedules WHERE id = $1`, [s.id]);
        }
      });

      it("a report goes only to staff whose role reads its books: refused when saved, left out of a run once the role changes", async () => {
        const admin = await newStaff(db, "admin", "reports.test");
        const support = await newStaff(db, "support", "reports.test");
        const ops = await newStaff(db, "operations", "reports.test");
        // Support reads no alerts, operations no alerts either: an alerts report may not name them.
        await expect(schedule(admin.email, { name: "Alerts to support", recipients: [admin.email, support.email] })).rejects.toMatchObject({
          code: "VALIDATION",
          fieldErrors: { recipients: expect.stringContaining(support.email) },
        });
        await expect(schedule(admin.email, { name: "Alerts to ops", recipients: [ops.email] })).rejects.toMatchObject({ code: "VALIDATION" });
        const s = await schedule(admin.email, { name: "Movements", kind: "daily_movements", recipients: [admin.email, ops.email] });
        // Moved to support (no movements:read) after the schedule was saved: the next run leaves them out.
        await sql(`UPDATE brokerdesk.staff_users SET role = 'support' WHERE email = $1`, [ops.email]);
        const { id } = await requestReportRun(db.engine, s.id, admin.email);
        await job();
        await pass();
        expect(smtp.to(ops.email)).toHaveLength(0);
        expect(smtp.to(admin.email).length).toBeGreaterThan(0);
        expect((await listReportRuns(db.engine)).runs.find((r) => r.id === id)).toMatchObject({ status: "sent", recipients: [admin.email] });
      });

      it("the schedule action refuses a recipient who is not enabled staff", async () => {
        const admin = await newStaff(db, "admin", "reports.test");
        const gone = await newStaff(db, "support", "reports.test");
        await sql(`UPDATE brokerdesk.staff_users SET disabled = true WHERE email = $1`, [gone.email]);
        session.staff = { id: admin.id, email: admin.email, name: admin.name, role: "admin" };
        const input = { name: "Alerts", kind: "alerts" as const, format: "csv" as const, cadence: "daily" as const, atTime: "07:00", enabled: true };

        for (const outsider of ["someone@elsewhere.test", gone.email]) {
          const refused = await createReportSchedule({ ...input, recipients: [admin.email, outsider] });
          expect(refused).toMatchObject({ ok: false, code: "VALIDATION" });
          expect(!refused.ok && refused.fieldErrors?.recipients).toContain(outsider);
        }
        const made = await createReportSchedule({ ...input, recipients: [admin.email] });
        expect(made).toMatchObject({ ok: true, data: { name: "Alerts", recipients: [admin.email] } });

        session.staff = { id: gone.id, email: "ops@desk.test", name: "ops", role: "operations" };
        expect(await createReportSchedule({ ...input, recipients: [admin.email] })).toMatchObject({ ok: false, code: "FORBIDDEN" });
      });
    });
  });
}
