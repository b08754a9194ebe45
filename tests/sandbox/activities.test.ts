import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Decimal from "decimal.js";
import { errorOf } from "../helpers/signed-fetch";
import { allActivities, engines, rid, seedAccountId, startFixture, type Fixture, type Activity } from "./fixture";

describe.each(engines)("account activities on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  });
  afterAll(() => f?.close());

  const all = (account: string, query: Record<string, string | number> = {}) => allActivities(f.api, account, 50, query);

  it("has a few months of seeded history whose cash sums to the balance", async () => {
    const a = seedAccountId(0);
    const items = await all(a);
    const types = new Set(items.map((i) => i.activity_type));
    for (const t of ["DEPOSIT", "TRANSFER", "INTERESTS", "DIVIDENDS", "TAX", "FEES"]) expect(types.has(t)).toBe(true);
    const times = items.map((i) => Date.parse(i.biz_time));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(60 * 86_400_000);
    const usd = items.filter((i) => i.currency === "USD").reduce((s, i) => s.plus(i.net_amount), new Decimal(0));
    const bal = await f.api.op("getBalance", "resource", { query: { account_id: a } });
    expect(bal.body.account_currency_assets[0].cash_balance).toBe(usd.toFixed(2));
    expect(items[0]).toMatchObject({ account_number: "VBD1000001", trade_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it("is written by every movement, and by nothing that did not move", async () => {
    const [a, b] = [seedAccountId(12), seedAccountId(13)];
    const before = (await all(a)).length;
    const j = await f.api.op("createCashJournal", "resource", {
      body: { from_account: a, to_account: b, client_request_id: rid("ac"), amount: "12.34", currency: "USD" },
    });
    expect(j.body.status).toBe("COMPLETED");
    const out = await all(a, { activity_type: "JOURNAL", page_size: 1 });
    expect(out[0]).toMatchObject({
      activity_type: "JOURNAL",
      activity_sub_type: "CASH_JOURNAL_OUT",
      net_amount: "-12.34",
      currency: "USD",
    });
    expect((await all(b, { activity_sub_type: "CASH_JOURNAL_IN" }))[0].net_amount).toBe("12.34");
    const rejected = await f.api.op("createCashJournal", "resource", {
      body: { from_account: a, to_account: b, client_request_id: rid("ac"), amount: "99999999.00", currency: "USD" },
    });
    expect(rejected.body.status).toBe("REJECTED");
    expect((await all(a)).length).toBe(before + 1);
    const p = await f.api.op("createPositionJournal", "resource", {
      body: {
        from_account: a,
        to_account: b,
        client_request_id: rid("ac"),
        instrument_type: "EQUITY",
        market: "US",
        symbol: "AAPL",
        quantity: "1",
      },
    });
    if (p.body.status === "COMPLETED") {
      expect((await all(a, { activity_sub_type: "POSITION_JOURNAL_OUT" }))[0]).toMatchObject({
        symbol: "AAPL",
        quantity: "-1",
        net_amount: "0.00",
      });
    } else {
      expect((await all(a)).length).toBe(before + 1);
    }
  });

  it("filters by type list, sub type and time range, and pages with last_activity_id on the legacy path", async () => {
    const a = seedAccountId(0);
    const items = await all(a);
    const deposits = await all(a, { activity_types: "DEPOSIT,TRANSFER" });
    expect(deposits.length).toBe(items.filter((i) => ["DEPOSIT", "TRANSFER"].includes(i.activity_type)).length);
    const mid = items[Math.floor(items.length / 2)].biz_time;
    const late = await all(a, { start_time: mid.replace("Z", "+0000") });
    expect(late.every((i) => i.biz_time >= mid)).toBe(true);
    expect(late.length).toBeLessThan(items.length);
    const early = await all(a, { end_time: mid });
    expect(early.every((i) => i.biz_time <= mid)).toBe(true);
    const legacy: Activity[] = [];
    let last: string | undefined;
    for (;;) {
      const r = await f.api.op("listAccountActivities", "legacy", {
        query: { account_id: a, page_size: 4, ...(last ? { last_activity_id: last } : {}) },
      });
      legacy.push(...r.body);
      if (r.body.length < 4) break;
      last = r.body[3].id;
    }
    expect(legacy.map((i) => i.id)).toEqual(items.map((i) => i.id));
    const alias = await f.api.call("GET", "/openapi/broker/activities/cash", { query: { account_id: a, page_size: 2 } });
    expect(alias.body.map((i: Activity) => i.id)).toEqual(items.slice(0, 2).map((i) => i.id));
    expect(errorOf(await f.api.op("listAccountActivities", "resource", { query: { account_id: a, activity_type: "PARTY" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
    expect(errorOf(await f.api.op("listAccountActivities", "resource", { query: { account_id: a, start_time: "last week" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
    expect(errorOf(await f.api.op("listAccountActivities", "resource", { query: { account_id: a, pagination_key: "garbage" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
  });
});
