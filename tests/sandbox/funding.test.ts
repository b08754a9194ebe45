import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Decimal from "decimal.js";
import { errorOf } from "../helpers/signed-fetch";
import { engines, masterAccountId, rid, seedAccountId, startFixture, type Fixture } from "./fixture";

// Seed facts used here: account 1 is MARGIN with options; 11 is FROZEN; 38 is CREATED; 0 holds HK stock; every funded account holds US stock.
describe.each(engines)("assets, funding, FX and journals on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  });
  afterAll(() => f?.close());

  const usd = async (account: string) => {
    const b = await f.api.op("getBalance", "resource", { query: { account_id: account } });
    return new Decimal(b.body.account_currency_assets.find((a: { currency: string }) => a.currency === "USD").cash_balance);
  };
  const cashOf = async (account: string, currency: string) => {
    const b = await f.api.op("getBalance", "legacy", { query: { account_id: account } });
    return new Decimal(b.body.account_currency_assets.find((a: { currency: string }) => a.currency === currency).cash_balance);
  };

  it("reports balances per currency with init_margin, and positions with option legs", async () => {
    const b = await f.sha1.op("getBalance", "resource", { query: { account_id: seedAccountId(1), total_asset_currency: "HKD" } });
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({
      total_asset_currency: "HKD",
      total_cash_balance: expect.stringMatching(/^-?\d+\.\d{2}$/),
      init_margin: expect.any(String),
    });
    expect(b.body.account_currency_assets.map((a: { currency: string }) => a.currency)).toEqual(["USD", "HKD", "CNH"]);
    const a = b.body.account_currency_assets[0];
    for (const k of [
      "cash_balance",
      "settled_cash",
      "unsettled_cash",
      "market_value",
      "buying_power",
      "unrealized_profit_loss",
      "available_withdrawal",
      "interests_unpaid",
      "init_margin",
    ]) {
      expect(a[k]).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect(new Decimal(a.init_margin).gt(0)).toBe(true);
    const p = await f.api.op("listPositions", "resource", { query: { account_id: seedAccountId(1) } });
    const option = p.body.data.find((x: { instrument_type: string }) => x.instrument_type === "OPTION");
    expect(option.legs[0]).toMatchObject({
      option_contract_multiplier: "100",
      option_type: expect.stringMatching(/CALL|PUT/),
      option_expire_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(option.legs[0].option_contract_deliverable).toMatch(/^100 /);
    const legacy = await f.api.op("listPositions", "legacy", { query: { account_id: seedAccountId(1) } });
    expect(legacy.body).toEqual(p.body.data);
    expect(errorOf(await f.api.op("getBalance", "resource", { query: { account_id: "nope" } }))).toEqual({
      status: 417,
      code: "ACCOUNT_NOT_FOUND",
    });
    expect(errorOf(await f.api.op("getBalance", "resource"))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });

  it("quotes FX rates with effective and expiry times", async () => {
    const r = await f.api.op("getFxRate", "legacy", { query: { from_currency: "USD", to_currency: "HKD" } });
    expect(r.body).toMatchObject({ from_currency: "USD", to_currency: "HKD", fx_rate: "7.792200" });
    expect(Date.parse(r.body.rate_expire_time) - Date.parse(r.body.rate_effective_time)).toBe(60_000);
    expect(errorOf(await f.api.op("getFxRate", "resource", { query: { from_currency: "USD", to_currency: "EUR" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
  });

  it("runs FX requests on the master account: COMPLETED moves both currencies, too much is REJECTED", async () => {
    const m = masterAccountId();
    const [usd0, hkd0] = [await cashOf(m, "USD"), await cashOf(m, "HKD")];
    const body = { account_id: m, client_request_id: rid("fx"), from_amount: "1000.00", from_currency: "USD", to_currency: "HKD" };
    const r = await f.api.op("createFxRequest", "resource", { body });
    expect(r.body).toMatchObject({
      fx_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      status: "COMPLETED",
      to_amount: "7792.20",
      fx_rate: "7.792200",
    });
    expect(r.body.reason).toBeUndefined();
    expect((await cashOf(m, "USD")).toFixed(2)).toBe(usd0.minus(1000).toFixed(2));
    expect((await cashOf(m, "HKD")).toFixed(2)).toBe(hkd0.plus("7792.20").toFixed(2));
    const detail = await f.api.op("getFxRequest", "legacy", { query: { account_id: m, client_request_id: body.client_request_id } });
    expect(detail.body).toEqual(r.body);
    const big = await f.api.op("createFxRequest", "legacy", {
      body: { ...body, client_request_id: rid("fx"), from_amount: "999999999.00" },
    });
    expect(big.body.status).toBe("REJECTED");
    expect(big.body.reason).toMatch(/Insufficient USD/);
    expect((await cashOf(m, "USD")).toFixed(2)).toBe(usd0.minus(1000).toFixed(2));
    const onVa = await f.api.op("createFxRequest", "resource", {
      body: { ...body, client_request_id: rid("fx"), account_id: seedAccountId(1) },
    });
    expect(errorOf(onVa)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });

  it("runs instant exchanges on a virtual account against the master, refusing a rate too good", async () => {
    const a = seedAccountId(0);
    const [usd0, hkd0] = [await cashOf(a, "USD"), await cashOf(a, "HKD")];
    const ok = await f.api.op("createInstantExchange", "resource", {
      body: {
        account_id: a,
        client_request_id: rid("ie"),
        from_amount: "100.00",
        to_amount: "779.00",
        from_currency: "USD",
        to_currency: "HKD",
      },
    });
    expect(ok.body).toMatchObject({ instant_exchange_id: expect.any(String), status: "COMPLETED", to_amount: "779.00" });
    expect((await cashOf(a, "USD")).toFixed(2)).toBe(usd0.minus(100).toFixed(2));
    expect((await cashOf(a, "HKD")).toFixed(2)).toBe(hkd0.plus(779).toFixed(2));
    const greedy = await f.api.op("createInstantExchange", "legacy", {
      body: {
        account_id: a,
        client_request_id: rid("ie"),
        from_amount: "100.00",
        to_amount: "900.00",
        from_currency: "USD",
        to_currency: "HKD",
      },
    });
    expect(greedy.body.status).toBe("REJECTED");
    expect(greedy.body.reason).toMatch(/mid-rate/);
    const detail = await f.api.op("getInstantExchange", "legacy", {
      query: { account_id: a, client_request_id: greedy.body.client_request_id },
    });
    expect(detail.body.status).toBe("REJECTED");
  });

  it("deposits and withdraws with instant funding; a withdrawal beyond cash is REJECTED and moves nothing", async () => {
    const a = seedAccountId(4);
    const before = await usd(a);
    const dep = await f.sha1.op("createInstantFunding", "resource", {
      body: { account_id: a, type: "DEPOSIT", client_request_id: rid("if"), amount: "250.50", currency: "USD" },
    });
    expect(dep.body).toMatchObject({ instant_funding_id: expect.any(String), type: "DEPOSIT", amount: "250.50", status: "COMPLETED" });
    const wd = await f.api.op("createInstantFunding", "legacy", {
      body: { account_id: a, type: "WITHDRAWAL", client_request_id: rid("if"), amount: "50.50", currency: "USD" },
    });
    expect(wd.body.status).toBe("COMPLETED");
    expect((await usd(a)).toFixed(2)).toBe(before.plus(200).toFixed(2));
    const tooMuch = await f.api.op("createInstantFunding", "resource", {
      body: { account_id: a, type: "WITHDRAWAL", client_request_id: rid("if"), amount: "99999999.00", currency: "USD" },
    });
    expect(tooMuch.body).toMatchObject({ status: "REJECTED", reason: expect.stringMatching(/Insufficient USD cash/) });
    expect((await usd(a)).toFixed(2)).toBe(before.plus(200).toFixed(2));
    const detail = await f.api.op("getInstantFunding", "resource", {
      query: { account_id: a, client_request_id: dep.body.client_request_id },
    });
    expect(detail.body.instant_funding_id).toBe(dep.body.instant_funding_id);
    for (const bad of [{ type: "GIFT" }, { amount: "-5" }, { amount: "1.001" }, { currency: "EUR" }, { account_id: masterAccountId() }]) {
      const r = await f.api.op("createInstantFunding", "resource", {
        body: { account_id: a, type: "DEPOSIT", client_request_id: rid("if"), amount: "1.00", currency: "USD", ...bad },
      });
      expect(errorOf(r)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    }
  });

  it("journals cash between accounts, idempotently, rejecting short cash and blocked accounts", async () => {
    const [a, b] = [seedAccountId(2), seedAccountId(3)];
    const [a0, b0] = [await usd(a), await usd(b)];
    const body = { from_account: a, to_account: b, client_request_id: rid("cj"), amount: "123.45", currency: "USD" };
    const r = await f.api.op("createCashJournal", "resource", { body });
    expect(r.body).toMatchObject({ journal_id: expect.any(String), from_account: a, to_account: b, amount: "123.45", status: "COMPLETED" });
    const again = await f.sha1.op("createCashJournal", "legacy", { body });
    expect(again.body).toEqual(r.body);
    expect((await usd(a)).toFixed(2)).toBe(a0.minus("123.45").toFixed(2));
    expect((await usd(b)).toFixed(2)).toBe(b0.plus("123.45").toFixed(2));
    expect(errorOf(await f.api.op("createCashJournal", "resource", { body: { ...body, amount: "1.00" } }))).toEqual({
      status: 417,
      code: "DUPLICATE_CLIENT_REQUEST_ID",
    });
    const short = await f.api.op("createCashJournal", "resource", {
      body: { ...body, client_request_id: rid("cj"), amount: "50000000.00" },
    });
    expect(short.body).toMatchObject({ status: "REJECTED", reason: expect.stringMatching(/Insufficient USD cash/) });
    const frozen = await f.api.op("createCashJournal", "resource", {
      body: { ...body, client_request_id: rid("cj"), to_account: seedAccountId(11) },
    });
    expect(frozen.body).toMatchObject({ status: "REJECTED", reason: expect.stringMatching(/FROZEN/) });
    expect((await usd(a)).toFixed(2)).toBe(a0.minus("123.45").toFixed(2));
    const fromMaster = await f.api.op("createCashJournal", "resource", {
      body: { ...body, client_request_id: rid("cj"), from_account: "FV000123", amount: "10.00" },
    });
    expect(fromMaster.body.status).toBe("COMPLETED");
    const detail = await f.api.op("getCashJournal", "legacy", { query: { account_id: a, client_request_id: body.client_request_id } });
    expect(detail.body).toEqual(r.body);
    expect(
      errorOf(await f.api.op("getCashJournal", "resource", { query: { account_id: b, client_request_id: body.client_request_id } })),
    ).toEqual({ status: 417, code: "REQUEST_NOT_FOUND" });
    expect(
      errorOf(await f.api.op("createCashJournal", "resource", { body: { ...body, client_request_id: rid("cj"), to_account: a } })),
    ).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(
      errorOf(await f.api.op("createCashJournal", "resource", { body: { ...body, client_request_id: rid("cj"), to_account: "zzz" } })),
    ).toEqual({ status: 417, code: "ACCOUNT_NOT_FOUND" });
  });

  it("journals positions: stocks and OCC options complete, positions not held FAIL with a reason, quantity must be positive", async () => {
    const [a, b] = [seedAccountId(1), seedAccountId(2)];
    const held = (await f.api.op("listPositions", "legacy", { query: { account_id: a } })).body as {
      symbol: string;
      quantity: string;
      instrument_type: string;
    }[];
    const stock = held.find((p) => p.instrument_type === "EQUITY")!;
    const option = held.find((p) => p.instrument_type === "OPTION")!;
    const base = { from_account: a, to_account: b, market: "US" };
    const s = await f.api.op("createPositionJournal", "resource", {
      body: { ...base, client_request_id: rid("pj"), instrument_type: "EQUITY", symbol: stock.symbol, quantity: "1" },
    });
    expect(s.body).toMatchObject({ journal_id: expect.any(String), status: "COMPLETED", quantity: "1", symbol: stock.symbol });
    expect(s.body.reason).toBeUndefined();
    const padded = option.symbol.replace(/^([A-Z]+)(\d)/, (_m, root: string, d: string) => `${root.padEnd(6, " ")}${d}`);
    const o = await f.api.op("createPositionJournal", "legacy", {
      body: { ...base, client_request_id: rid("pj"), instrument_type: "OPTION", symbol: padded, quantity: "1" },
    });
    expect(o.body).toMatchObject({ status: "COMPLETED", symbol: option.symbol });
    const after = (await f.api.op("listPositions", "legacy", { query: { account_id: a } })).body as { symbol: string; quantity: string }[];
    expect(after.find((p) => p.symbol === stock.symbol)?.quantity).toBe(new Decimal(stock.quantity).minus(1).toString());
    const got = (await f.api.op("listPositions", "legacy", { query: { account_id: b } })).body as { symbol: string }[];
    expect(got.some((p) => p.symbol === option.symbol)).toBe(true);

    const notHeld = await f.api.op("createPositionJournal", "resource", {
      body: { ...base, client_request_id: rid("pj"), instrument_type: "EQUITY", symbol: "WFC.PRL", quantity: "3" },
    });
    expect(notHeld.body).toMatchObject({ status: "FAILED", reason: expect.stringMatching(/holds no WFC\.PRL/) });
    const tooMany = await f.api.op("createPositionJournal", "resource", {
      body: { ...base, client_request_id: rid("pj"), instrument_type: "EQUITY", symbol: stock.symbol, quantity: "100000" },
    });
    expect(tooMany.body).toMatchObject({ status: "FAILED", reason: expect.stringMatching(/fewer than/) });
    const detail = await f.api.op("getPositionJournal", "resource", {
      query: { account_id: a, client_request_id: notHeld.body.client_request_id },
    });
    expect(detail.body).toMatchObject({ status: "FAILED", reason: notHeld.body.reason });
    for (const quantity of ["0", "-1", "abc"]) {
      const r = await f.api.op("createPositionJournal", "resource", {
        body: { ...base, client_request_id: rid("pj"), instrument_type: "EQUITY", symbol: stock.symbol, quantity },
      });
      expect(errorOf(r)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    }
    const unknown = await f.api.op("createPositionJournal", "resource", {
      body: { ...base, client_request_id: rid("pj"), instrument_type: "EQUITY", symbol: "NOPE", quantity: "1" },
    });
    expect(errorOf(unknown)).toEqual({ status: 417, code: "INSTRUMENT_NOT_FOUND" });
    const master = await f.api.op("createPositionJournal", "resource", {
      body: {
        ...base,
        from_account: masterAccountId(),
        client_request_id: rid("pj"),
        instrument_type: "EQUITY",
        symbol: stock.symbol,
        quantity: "1",
      },
    });
    expect(errorOf(master)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });

  it("holds requests SUBMITTED until a control call completes or cancels them; balances move only on completion", async () => {
    const [a, b] = [seedAccountId(6), seedAccountId(7)];
    const a0 = await usd(a);
    await f.api.call("POST", "/sandbox/requests/hold", { body: { enabled: true } });
    try {
      const j = await f.api.op("createCashJournal", "resource", {
        body: { from_account: a, to_account: b, client_request_id: rid("h"), amount: "10.00", currency: "USD" },
      });
      const c = await f.api.op("createCashJournal", "resource", {
        body: { from_account: a, to_account: b, client_request_id: rid("h"), amount: "20.00", currency: "USD" },
      });
      expect([j.body.status, c.body.status]).toEqual(["SUBMITTED", "SUBMITTED"]);
      expect((await usd(a)).toFixed(2)).toBe(a0.toFixed(2));
      const done = await f.api.call("POST", "/sandbox/requests/complete", {
        body: { kind: "CASH_JOURNAL", client_request_id: j.body.client_request_id },
      });
      expect(done.body.status).toBe("COMPLETED");
      const canceled = await f.api.call("POST", "/sandbox/requests/cancel", {
        body: { kind: "CASH_JOURNAL", client_request_id: c.body.client_request_id },
      });
      expect(canceled.body.status).toBe("CANCELED");
      expect((await usd(a)).toFixed(2)).toBe(a0.minus(10).toFixed(2));
      const twice = await f.api.call("POST", "/sandbox/requests/cancel", {
        body: { kind: "CASH_JOURNAL", client_request_id: j.body.client_request_id },
      });
      expect(errorOf(twice)).toEqual({ status: 417, code: "INVALID_STATUS_TRANSITION" });
    } finally {
      await f.api.call("POST", "/sandbox/requests/hold", { body: { enabled: false } });
    }
  });

  it("serialises concurrent journals on one account: never more out than the cash available", async () => {
    const [a, b] = [seedAccountId(9), seedAccountId(10)];
    const start = await usd(a);
    // Leave exactly 5 x 100 available, then race 12 journals of 100.
    const excess = start.minus(500);
    await f.api.op("createInstantFunding", "resource", {
      body: { account_id: a, type: "WITHDRAWAL", client_request_id: rid("cc"), amount: excess.toFixed(2), currency: "USD" },
    });
    const held = await f.sb.engine.query<{ held: string; unsettled: string }>(
      "SELECT held_amount AS held, unsettled_cash AS unsettled FROM sandbox.cash_balances WHERE account_id = $1 AND currency = 'USD'",
      [a],
    );
    expect(held.rows[0]).toEqual({ held: "0.00000000", unsettled: "0.00000000" });
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        f.api.op("createCashJournal", "resource", {
          body: { from_account: a, to_account: b, client_request_id: rid("cc"), amount: "100.00", currency: "USD" },
        }),
      ),
    );
    const statuses = results.map((r) => r.body.status);
    expect(statuses.filter((s) => s === "COMPLETED")).toHaveLength(5);
    expect(statuses.filter((s) => s === "REJECTED")).toHaveLength(7);
    expect((await usd(a)).toFixed(2)).toBe("0.00");
  });

  it("runs opposite journals between two accounts concurrently without deadlock, conserving the total", async () => {
    const [a, b] = [seedAccountId(15), seedAccountId(16)];
    const [a0, b0] = [await usd(a), await usd(b)];
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        f.api.op("createCashJournal", "resource", {
          body: {
            from_account: i % 2 ? a : b,
            to_account: i % 2 ? b : a,
            client_request_id: rid("x"),
            amount: `${1 + i}.00`,
            currency: "USD",
          },
        }),
      ),
    );
    expect(results.map((r) => r.body.status)).toEqual(Array(16).fill("COMPLETED"));
    const [a1, b1] = [await usd(a), await usd(b)];
    expect(a1.plus(b1).toFixed(2)).toBe(a0.plus(b0).toFixed(2));
    // a sends 2+4+…+16 = 72, receives 1+3+…+15 = 64
    expect(a1.toFixed(2)).toBe(a0.minus(8).toFixed(2));
  });
});
