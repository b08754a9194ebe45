import Decimal from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import { allActivities, engines, masterAccountId, seedAccountId, startFixture, type Fixture, type Activity } from "./fixture";

describe.each(engines)("sandbox activity history control API on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  });
  afterAll(() => f?.close());

  const all = (account: string, query: Record<string, string | number> = {}) => allActivities(f.api, account, 200, query);
  const totals = async (query: Record<string, string> = {}) => {
    const r = await f.api.call("GET", "/sandbox/activities/totals", { query });
    expect(r.status).toBe(200);
    return r.body.data as { currency: string; count: number; net_amount: string }[];
  };
  const generate = (body: Record<string, unknown>) => f.api.call("POST", "/sandbox/activities/generate", { body });

  it("generates history spread over the range, signed per type, deterministic, without moving balances", async () => {
    const a = seedAccountId(20);
    const balanceBefore = (await f.api.op("getBalance", "resource", { query: { account_id: a } })).body;
    const before = await totals({ account_id: a });
    const body = {
      account_id: a,
      count: 600,
      start_time: "2024-01-01T00:00:00.000+0000",
      end_time: "2024-01-07T00:00:00.000+0000",
      activity_types: ["DEPOSIT", "WITHDRAW", "JOURNAL", "FEES"],
      currency: "HKD",
      description: "Old books",
    };
    expect((await generate(body)).body).toEqual({ inserted: 600 });
    // The same request again: the same ids, nothing new.
    expect((await generate(body)).body).toEqual({ inserted: 0 });
    const items = await all(a, { start_time: body.start_time, end_time: body.end_time });
    expect(items).toHaveLength(600);
    const times = items.map((i) => i.biz_time).sort();
    expect(times[0]).toBe("2024-01-01T00:00:00.000Z");
    expect(times[599] < "2024-01-07T00:00:00.000Z").toBe(true);
    expect(new Set(items.map((i) => i.id)).size).toBe(600);
    for (const i of items) {
      expect(i).toMatchObject({ currency: "HKD", description: "Old books", trade_date: i.biz_time.slice(0, 10) });
      const amount = new Decimal(i.net_amount);
      if (i.activity_type === "DEPOSIT") expect(amount.isPositive()).toBe(true);
      if (i.activity_type === "WITHDRAW" || i.activity_type === "FEES") expect(amount.isNegative()).toBe(true);
      if (i.activity_type === "JOURNAL") expect(i.activity_sub_type).toBe(amount.isPositive() ? "CASH_JOURNAL_IN" : "CASH_JOURNAL_OUT");
    }
    expect(new Set(items.map((i) => i.activity_type))).toEqual(new Set(["DEPOSIT", "WITHDRAW", "JOURNAL", "FEES"]));
    expect((await f.api.op("getBalance", "resource", { query: { account_id: a } })).body).toEqual(balanceBefore);

    // Totals: per currency, straight from the table, with the listing's filters.
    const sum = (xs: Activity[]) => xs.reduce((s, i) => s.plus(i.net_amount), new Decimal(0)).toFixed();
    const hkd = await totals({ account_id: a, currency: "HKD", start_time: body.start_time, end_time: body.end_time });
    expect(hkd).toEqual([{ currency: "HKD", count: 600, net_amount: sum(items) }]);
    const deposits = await totals({ account_id: a, activity_type: "DEPOSIT", start_time: body.start_time, end_time: body.end_time });
    expect(deposits).toEqual([{ currency: "HKD", count: 150, net_amount: sum(items.filter((i) => i.activity_type === "DEPOSIT")) }]);
    const after = await totals({ account_id: a });
    const count = (rows: typeof after, c: string) => rows.find((r) => r.currency === c)?.count ?? 0;
    expect(count(after, "HKD") - count(before, "HKD")).toBe(600);
    expect(count(after, "USD")).toBe(count(before, "USD"));
    // Across every account by default; the master account's history counts too.
    const everything = await totals();
    expect(everything.find((r) => r.currency === "HKD")!.count).toBeGreaterThanOrEqual(600);
    expect((await totals({ account_id: masterAccountId() })).length).toBeGreaterThan(0);
  });

  it("makes one row at the start of the range for a count of one, and a hundred thousand in one call", async () => {
    const a = seedAccountId(21);
    expect(
      (await generate({ account_id: a, count: 1, start_time: "2025-03-01T12:00:00.123Z", end_time: "2025-03-01T12:00:01.000Z" })).body,
    ).toEqual({ inserted: 1 });
    const [one] = await all(a, { start_time: "2025-03-01T12:00:00.123+0000", end_time: "2025-03-01T12:00:00.123+0000" });
    expect(one).toMatchObject({ biz_time: "2025-03-01T12:00:00.123Z", activity_type: "DEPOSIT" });
    expect(
      (await generate({ account_id: a, count: 100_000, start_time: "2020-01-01T00:00:00.000Z", end_time: "2021-01-01T00:00:00.000Z" }))
        .body,
    ).toEqual({ inserted: 100_000 });
    expect(await totals({ account_id: a, start_time: "2020-01-01T00:00:00.000Z", end_time: "2020-12-31T23:59:59.999Z" })).toEqual([
      { currency: "USD", count: 100_000, net_amount: expect.any(String) },
    ]);
  }, 120_000);

  it("refuses bad input", async () => {
    const ok = { account_id: seedAccountId(22), count: 10, start_time: "2024-01-01T00:00:00.000Z", end_time: "2024-01-02T00:00:00.000Z" };
    for (const bad of [
      { count: 0 },
      { count: 100_001 },
      { count: 1.5 },
      { start_time: "yesterday" },
      { end_time: undefined },
      { end_time: ok.start_time },
      { activity_types: ["PARTY"] },
      { activity_types: [] },
      { currency: "EUR" },
      { description: 5 },
    ]) {
      expect(errorOf(await generate({ ...ok, ...bad }))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    }
    expect(errorOf(await generate({ ...ok, account_id: "nobody" }))).toEqual({ status: 417, code: "ACCOUNT_NOT_FOUND" });
    expect(errorOf(await f.api.call("GET", "/sandbox/activities/totals", { query: { activity_type: "PARTY" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
    expect(errorOf(await f.api.call("GET", "/sandbox/activities/totals", { query: { start_time: "soon" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
  });
});
