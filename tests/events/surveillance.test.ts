import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import { ingest, rebuildReadModel } from "@/server/books/ingest";
import { fromStream } from "@/server/events/ingest";
import { onChange } from "@/server/notices/listen";
import { listAlerts, recordOptionLevelChange } from "@/server/surveillance/queries/alerts";
import { JOBS } from "@/server/jobs/definitions";
import { readWatermark } from "@/server/jobs/queries";
import { startJobs, type JobsHandle } from "@/server/jobs/runtime";
import { testEngines } from "../helpers/engines";
import { probeDeps } from "../jobs/probe";
import { until } from "../helpers/until";

/** Surveillance rules evaluated as movements and orders reach the read model: each kind fires on its data only, once. */
let n = 0;
const event = (event_type: string, timestamp: string, payload: Record<string, unknown>) =>
  fromStream(JSON.stringify({ id: `ev-${++n}`, event_type, timestamp, payload }));
const funding = (
  crid: string,
  account: string,
  type: "DEPOSIT" | "WITHDRAWAL",
  amount: string,
  at: string,
  extra: Record<string, unknown> = {},
) =>
  event("FUNDING", at, {
    biz_type: "INSTANT_FUNDING",
    client_request_id: crid,
    request_id: `if-${crid}`,
    account_id: account,
    type,
    amount,
    currency: "USD",
    status: "COMPLETED",
    ...extra,
  });
const journal = (crid: string, from: string, to: string, at: string) =>
  event("JOURNAL", at, {
    biz_type: "CASH_JOURNAL",
    journal_type: "CASH",
    client_request_id: crid,
    request_id: `j-${crid}`,
    account_id: from,
    from_account: from,
    to_account: to,
    amount: "100",
    currency: "USD",
    status: "COMPLETED",
  });
const order = (account: string, coid: string, category: string, at: string) =>
  event("TRADE", at, {
    biz_type: "TRADE",
    scene_type: "PLACE_SUCCESS",
    account_id: account,
    client_order_id: coid,
    order_id: `o-${coid}`,
    symbol: category.endsWith("OPTION") ? "AAPL261218C00200000" : "AAPL",
    category,
    side: "BUY",
    order_type: "LIMIT",
    qty: "1",
    order_status: "SUBMITTED",
  });

describe.each(testEngines())("surveillance ($name)", (te) => {
  let db: AppDb;
  let close: () => Promise<void>;
  let jobs: JobsHandle | undefined;
  beforeAll(async () => {
    const opened = await te.open();
    db = await prepareAppDb(opened.engine);
    close = opened.close;
    // The evaluation is a job started by the projection's change notice: the job system runs beside the tests.
    jobs = await startJobs({ jobs: [JOBS.surveillance], pollingIntervalSeconds: 0.5, deps: probeDeps(db) });
  });
  afterAll(async () => {
    await jobs?.stop();
    await close?.();
  });
  /** Stores and projects events, then waits for the surveillance job to have evaluated them. */
  const ingested = async (...args: Parameters<typeof ingest> extends [unknown, ...infer R] ? R : never) => {
    const r = await ingest(db.engine, ...args);
    if (r.lastSeq) {
      const seq = r.lastSeq;
      await until(async () => (await readWatermark(db.engine, "surveillance")) >= seq, 20_000, "the surveillance job");
    }
    return r;
  };
  const alerts = async (kind: string) =>
    (
      await db.engine.query<{
        id: string;
        subject: string;
        account_id: string;
        summary: string;
        movements: unknown;
        orders: unknown;
        status: string;
      }>(
        `SELECT a.id::text AS id, a.subject, a.account_id, a.summary, a.movements, a.orders, a.status FROM brokerdesk.alerts a
         JOIN brokerdesk.surveillance_rules r ON r.id = a.rule_id WHERE r.kind = $1 ORDER BY a.id`,
        [kind],
      )
    ).rows.map((r) => ({
      ...r,
      movements: typeof r.movements === "string" ? JSON.parse(r.movements) : r.movements,
      orders: typeof r.orders === "string" ? JSON.parse(r.orders) : r.orders,
    }));

  it("a deposit or withdrawal above the threshold in its currency raises one alert; smaller, other currencies and rejected ones do not", async () => {
    const notices: string[][] = [];
    const unlisten = await onChange(db.engine, (n) => notices.push(n.topics));
    await ingested([
      funding("big-dep", "A1", "DEPOSIT", "60000", "2026-11-01T10:00:00Z"),
      funding("small-dep", "A1", "DEPOSIT", "40000", "2026-11-01T10:01:00Z"),
      funding("hkd-dep", "A1", "DEPOSIT", "900000", "2026-11-01T10:02:00Z", { currency: "HKD" }),
      funding("rejected-dep", "A1", "DEPOSIT", "90000", "2026-11-01T10:03:00Z", { status: "REJECTED" }),
      funding("big-wd", "A9", "WITHDRAWAL", "50000.01", "2026-11-01T10:04:00Z"),
    ]);
    // The evaluation tells open pages (the alert queue) that alerts were raised.
    await until(() => notices.some((t) => t.includes("alert")), 20_000, "the alert notice");
    unlisten();
    const found = await alerts("large_funding");
    expect(found.map((a) => [a.subject, a.account_id])).toEqual([
      ["movement:INSTANT_FUNDING:big-dep", "A1"],
      ["movement:INSTANT_FUNDING:big-wd", "A9"],
    ]);
    expect(found.map((a) => a.summary)).toEqual([
      "Deposit of USD 60,000.00 (above 50,000.00)",
      "Withdrawal of USD 50,000.01 (above 50,000.00)",
    ]);
    expect(found[0].movements).toEqual([
      expect.objectContaining({
        kind: "INSTANT_FUNDING",
        client_request_id: "big-dep",
        amount: "60000",
        currency: "USD",
        direction: "DEPOSIT",
      }),
    ]);
  });

  it("the same event projected twice, and a rebuild of the read model, raise nothing twice", async () => {
    const again = funding("big-dep-2", "A2", "DEPOSIT", "75000", "2026-11-01T11:00:00Z");
    await ingested([again]);
    const before = await alerts("large_funding");
    // The same upstream event again (a resubscription), and its status moving on.
    const second = await ingested([again]);
    expect(second.duplicates).toBe(1);
    await ingested([funding("big-dep-2", "A2", "DEPOSIT", "75000", "2026-11-01T11:00:05Z", { status: "COMPLETED", reason: "settled" })]);
    await rebuildReadModel(db.engine);
    expect(await alerts("large_funding")).toEqual(before);
    expect(before.filter((a) => a.subject.endsWith(":big-dep-2"))).toHaveLength(1);
  });

  it("a withdrawal within N days of a deposit of similar size fires; a dissimilar or later one does not", async () => {
    await ingested([
      funding("d-b1", "B1", "DEPOSIT", "20000", "2026-11-02T09:00:00Z"),
      funding("w-b1", "B1", "WITHDRAWAL", "19000", "2026-11-05T09:00:00Z"), // 3 days, 5 % smaller: fires
      funding("d-b2", "B2", "DEPOSIT", "20000", "2026-11-02T09:00:00Z"),
      funding("w-b2", "B2", "WITHDRAWAL", "12000", "2026-11-03T09:00:00Z"), // 40 % smaller
      funding("d-b3", "B3", "DEPOSIT", "20000", "2026-10-01T09:00:00Z"),
      funding("w-b3", "B3", "WITHDRAWAL", "20000", "2026-10-20T09:00:00Z"), // 19 days later
      funding("w-b4", "B4", "WITHDRAWAL", "20000", "2026-11-03T09:00:00Z"), // no deposit
    ]);
    const found = await alerts("withdrawal_after_deposit");
    expect(found.map((a) => [a.subject, a.summary])).toEqual([
      ["movement:INSTANT_FUNDING:w-b1", "Withdrawal of USD 19,000.00 within 7 days of a deposit of USD 20,000.00"],
    ]);
    expect((found[0].movements as { client_request_id: string }[]).map((m) => m.client_request_id)).toEqual(["d-b1", "w-b1"]);
  });

  it("more than N journals into one account in a day raise one alert that lists them; N or fewer do not", async () => {
    await rememberAccountNumbers(db.engine, [{ account_id: "C1", account_number: "VBD0000C1" }]);
    const day = (i: number) => `2026-11-03T${String(8 + i).padStart(2, "0")}:00:00Z`;
    await ingest(
      db.engine,
      Array.from({ length: 6 }, (_, i) => journal(`jc-${i}`, "MASTER", "C1", day(i))),
    );
    await ingest(
      db.engine,
      Array.from({ length: 5 }, (_, i) => journal(`jd-${i}`, "MASTER", "C2", day(i))),
    );
    // Four into C3 one day and two the next: no day has more than five.
    await ingested([
      ...Array.from({ length: 4 }, (_, i) => journal(`je-${i}`, "MASTER", "C3", day(i))),
      journal("je-x", "MASTER", "C3", "2026-11-04T08:00:00Z"),
      journal("je-y", "MASTER", "C3", "2026-11-04T09:00:00Z"),
    ]);
    let found = await alerts("journals_per_day");
    expect(found.map((a) => [a.subject, a.account_id, (a.movements as unknown[]).length])).toEqual([["journals:C1:2026-11-03", "C1", 6]]);
    // A seventh the same day joins the same alert.
    await ingested([journal("jc-6", "MASTER", "C1", day(7))]);
    found = await alerts("journals_per_day");
    expect(found.map((a) => [a.subject, (a.movements as unknown[]).length])).toEqual([["journals:C1:2026-11-03", 7]]);
    // The account by its number, never its id (an account the directory lacks is "one account").
    expect(found[0].summary).toBe("7 journals into account VBD0000C1 on 2026-11-03 (more than 5)");
  });

  it("an option order within N hours of an option level raise fires; a stock order, a later order or another account's do not", async () => {
    expect(
      await recordOptionLevelChange(db.engine, {
        accountId: "D1",
        from: "LV1",
        to: "LV3",
        by: "ops@brokerdesk.test",
        at: new Date("2026-11-05T10:00:00Z"),
      }),
    ).toBe(true);
    expect(
      await recordOptionLevelChange(db.engine, {
        accountId: "D2",
        from: "LV3",
        to: "LV2",
        by: "ops@brokerdesk.test",
        at: new Date("2026-11-05T10:00:00Z"),
      }),
    ).toBe(false);
    await ingested([
      order("D1", "opt-soon", "US_OPTION", "2026-11-05T12:00:00Z"),
      order("D1", "stock-soon", "US_STOCK", "2026-11-05T12:30:00Z"),
      order("D1", "opt-late", "US_OPTION", "2026-11-07T12:00:00Z"),
      order("D2", "opt-lowered", "US_OPTION", "2026-11-05T12:00:00Z"),
      order("D3", "opt-other", "US_OPTION", "2026-11-05T12:00:00Z"),
    ]);
    const found = await alerts("option_after_level_raise");
    expect(found.map((a) => a.subject)).toEqual(["order:D1:opt-soon"]);
    expect(found[0].orders).toEqual([expect.objectContaining({ client_order_id: "opt-soon" })]);
  });

  it("alert numbers follow each other: a re-evaluation, or a journal joining an open alert, takes no number", async () => {
    const maxId = async () =>
      Number((await db.engine.query<{ m: string }>("SELECT coalesce(max(id), 0)::text AS m FROM brokerdesk.alerts")).rows[0].m);
    await ingested([funding("gap-dep", "G1", "DEPOSIT", "80000", "2026-11-06T09:00:00Z")]);
    const day = (i: number) => `2026-11-06T${String(8 + i).padStart(2, "0")}:00:00Z`;
    await ingested(Array.from({ length: 6 }, (_, i) => journal(`gj-${i}`, "MASTER", "G2", day(i))));
    const before = await maxId();
    // the deposit's status moves on (its rows are evaluated again) and a seventh journal joins the open alert
    await ingested([funding("gap-dep", "G1", "DEPOSIT", "80000", "2026-11-06T09:00:05Z", { reason: "settled" })]);
    await ingested([journal("gj-6", "MASTER", "G2", day(7))]);
    await ingested([journal("gj-7", "MASTER", "G2", day(8))]);
    expect(await maxId()).toBe(before);
    await ingested([funding("gap-dep-2", "G3", "DEPOSIT", "90000", "2026-11-06T10:00:00Z")]);
    expect(await maxId()).toBe(before + 1);
  });

  it("a disabled rule raises nothing; its parameters are read when events arrive", async () => {
    await db.engine.query("UPDATE brokerdesk.surveillance_rules SET enabled = false WHERE kind = 'large_funding'");
    await ingested([funding("off-dep", "E1", "DEPOSIT", "500000", "2026-11-06T10:00:00Z")]);
    expect((await alerts("large_funding")).some((a) => a.subject.endsWith(":off-dep"))).toBe(false);
    await db.engine.query(
      `UPDATE brokerdesk.surveillance_rules SET enabled = true, params = '{"currency": "USD", "amount": "1000"}' WHERE kind = 'large_funding'`,
    );
    await ingested([funding("low-threshold", "E1", "DEPOSIT", "1500", "2026-11-06T11:00:00Z")]);
    expect((await alerts("large_funding")).some((a) => a.subject.endsWith(":low-threshold"))).toBe(true);
  });

  it("the queue filters by rule, status and age and pages newest first without repeats", async () => {
    // alerts of its own (whatever else the file raised): two large deposits and a day of journals
    const day = (i: number) => `2026-11-07T${String(8 + i).padStart(2, "0")}:00:00Z`;
    await ingested([
      funding("q-dep-1", "Q1", "DEPOSIT", "70000", "2026-11-07T08:00:00Z"),
      funding("q-dep-2", "Q2", "DEPOSIT", "71000", "2026-11-07T08:01:00Z"),
      ...Array.from({ length: 6 }, (_, i) => journal(`qj-${i}`, "MASTER", "Q3", day(i))),
    ]);
    const all = (await listAlerts(db.engine, { limit: 200 })).rows;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const journalsRule = all.find((a) => a.ruleKind === "journals_per_day")!.ruleId;
    const byRule = (await listAlerts(db.engine, { rule: journalsRule })).rows;
    expect(byRule.map((a) => a.subject)).toContain("journals:Q3:2026-11-07");
    expect(byRule.map((a) => a.id)).toEqual(all.filter((a) => a.ruleId === journalsRule).map((a) => a.id));
    expect((await listAlerts(db.engine, { status: "open", age: "1d" })).rows).toHaveLength(all.length);
    expect((await listAlerts(db.engine, { age: "older" })).rows).toHaveLength(0);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAlerts(db.engine, { limit: 2, cursor });
      seen.push(...page.rows.map((a) => a.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((a) => a.id));
    expect(new Set(seen).size).toBe(seen.length);
  });
});
