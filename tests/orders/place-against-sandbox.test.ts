import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { blankTicket, type PlaceTicketValues } from "@/lib/schemas/order-ticket";
import { exerciseOption, placeOrderTicket, previewOrderTicket } from "@/server/actions/orders";
import { listAudit } from "@/server/audit/list";
import { setBrokerForTests } from "@/server/broker";
import { withAppDb } from "../helpers/app-db";
import { ACCOUNTS, clock, fund, order, place, position, setPrice, startTrading, stock, US_CORE } from "../sandbox/trading-helpers";
import type { Fixture } from "../sandbox/fixture";
import { sandboxBroker } from "../helpers/sandbox-broker";

/**
 * The ticket's preview and place actions, through the action wrapper, against a started sandbox: one order for
 * two identical submissions, upstream rule errors on their fields, the order in the desk's read model at once.
 */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({ clientIp: "10.0.0.9", userAgent: "vitest" }) }));

const OPS = { id: "00000000-0000-4000-8000-000000000002", email: "ops@example.test", name: "Ops", role: "operations" };
const db = withAppDb();
let f: Fixture;

beforeAll(async () => {
  f = await startTrading();
  setBrokerForTests(sandboxBroker(f.sb.url));
}, 120_000);
afterAll(async () => {
  setBrokerForTests(undefined);
  await f?.close();
});
beforeEach(async () => {
  session.staff = OPS;
  await clock(f.api, US_CORE);
  // every test's prices are set against this last price (the pre-trade band is 10 %)
  await setPrice(f.api, "AAPL", "228.50");
});

let n = 0;
const ticket = (o: Partial<PlaceTicketValues> = {}): PlaceTicketValues => ({
  ...blankTicket(),
  account_id: ACCOUNTS.margin,
  symbol: "AAPL",
  quantity: "3",
  // within the pre-trade price band of AAPL's 228.50 (10 %), below it: the buy rests
  limit_price: "220.00",
  client_order_id: `ord_t${process.pid}x${(n += 1)}`,
  ...o,
});

describe("place an order ticket", () => {
  it("two identical submissions with one client_order_id place one order, recorded in the read model with who placed it", async () => {
    const t = ticket();
    const [a, b] = await Promise.all([placeOrderTicket(t), placeOrderTicket(t)]);
    expect(a).toMatchObject({ ok: true });
    expect(b).toMatchObject({ ok: true });
    const ids = [a, b].map((r) => (r.ok ? r.data.orders[0].order_id : undefined));
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);

    const history = await f.api.op("listOrderHistory", "resource", { query: { account_id: ACCOUNTS.margin } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the response body is read loosely
    const groups = (history.body.data ?? history.body) as any[];
    expect(groups.filter((g) => g.client_order_id === t.client_order_id)).toHaveLength(1);

    const { rows } = await db().engine.query<{
      client_order_id: string;
      status: string;
      submitted_by: string;
      symbol: string;
      limit_price: string;
    }>(
      "SELECT client_order_id, status, submitted_by, symbol, limit_price::text AS limit_price FROM brokerdesk.orders WHERE client_order_id = $1",
      [t.client_order_id],
    );
    expect(rows).toEqual([
      expect.objectContaining({ client_order_id: t.client_order_id, submitted_by: OPS.email, symbol: "AAPL", status: "SUBMITTED" }),
    ]);
    const audit = (await listAudit(db().engine, { action: "orders.place" })).rows;
    expect(audit[0]).toMatchObject({ outcome: "success", idempotencyKey: t.client_order_id });
  });

  it("a MASTER with take-profit and stop-loss places three orders; the children wait", async () => {
    const t = ticket({ combo: "MASTER", profit_enabled: true, profit_limit_price: "240", loss_enabled: true, loss_stop_price: "210" });
    const r = await placeOrderTicket(t);
    expect(r.ok && r.data.orders.map((o) => o.combo_type)).toEqual(["MASTER", "STOP_PROFIT", "STOP_LOSS"]);
    expect((await order(f.api, ACCOUNTS.margin, `${t.client_order_id}-tp`)).status).toBe("PENDING");
  });

  it("a stale lot size on the form is caught by the pre-trade check on its field; nothing is placed", async () => {
    // the form's lot check used what the lookup said; the action checks the instrument card again
    const t = ticket({ market: "HK", symbol: "00700", lot_size: "1", quantity: "150", limit_price: "400" });
    const r = await placeOrderTicket(t);
    expect(r).toMatchObject({ ok: false, code: "PRE_TRADE_CHECK", fieldErrors: { quantity: "00700 trades in lots of 100 shares." } });
    const history = await f.api.op("getOrder", "resource", { query: { account_id: ACCOUNTS.margin, client_order_id: t.client_order_id } });
    expect(history.status).not.toBe(200);
  });

  it("a short sale on a cash account lands on the side", async () => {
    const r = await placeOrderTicket(ticket({ account_id: ACCOUNTS.cash, side: "SHORT", quantity: "1", limit_price: "230" }));
    expect(r).toMatchObject({ ok: false, code: "SHORT_NOT_ALLOWED", fieldErrors: { side: expect.any(String) } });
  });

  it("preview: commission and fees of the upstream, and the buying power it holds", async () => {
    const r = await previewOrderTicket(ticket({ quantity: "10", limit_price: "210.00" }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.currency).toBe("USD");
    expect(r.data.commission.actual).toMatch(/^\d+\.\d+$/);
    expect(r.data.hold).toBe(r.data.estimated_cost);
    expect(Number(r.data.buying_power_after)).toBeCloseTo(Number(r.data.buying_power) - Number(r.data.estimated_cost), 2);
    expect(r.data.checks).toEqual([]);
  });

  it("a China A-share limit order: previewed in CNH with its lot checked, placed once at the upstream as market CN", async () => {
    await setPrice(f.api, "601318", "52.36", { market: "CN" });
    const cn = (o: Partial<PlaceTicketValues> = {}) =>
      ticket({
        account_id: ACCOUNTS.marginCn,
        market: "CN",
        symbol: "601318",
        lot_size: "100",
        quantity: "200",
        limit_price: "52.00",
        ...o,
      });

    // a stale lot size on the form: the instrument card's 100 is checked again
    const part = await previewOrderTicket(cn({ lot_size: "1", quantity: "150" }));
    expect(part).toMatchObject({ ok: false, fieldErrors: { quantity: "601318 trades in lots of 100 shares." } });

    const t = cn();
    const preview = await previewOrderTicket(t);
    expect(preview).toMatchObject({ ok: true, data: { currency: "CNH", checks: [] } });
    if (!preview.ok) return;
    expect(Number(preview.data.commission.receivable)).toBeGreaterThanOrEqual(5); // CN: 0.03 %, at least CNH 5

    const placed = await placeOrderTicket(t);
    expect(placed).toMatchObject({ ok: true });
    const again = await placeOrderTicket(t); // a retry of the same ticket answers the same order
    expect(again.ok && again.data.orders[0].order_id).toBe(placed.ok && placed.data.orders[0].order_id);
    const upstream = await order(f.api, ACCOUNTS.marginCn, t.client_order_id);
    expect(upstream).toMatchObject({ symbol: "601318", order_type: "LIMIT", status: "SUBMITTED" });
    expect(Number(upstream.total_quantity)).toBe(200);
    const { rows } = await db().engine.query<{ market: string; symbol: string }>(
      "SELECT market, symbol FROM brokerdesk.orders WHERE client_order_id = $1",
      [t.client_order_id],
    );
    expect(rows).toEqual([{ market: "CN", symbol: "601318" }]);
  });

  it("an option spread above the account's level is refused on the legs before anything is sent", async () => {
    const legs = [
      {
        symbol: "AAPL261218C00230000",
        option_type: "CALL" as const,
        strike_price: "230",
        expiry: "2026-12-18",
        multiplier: "100",
        side: "BUY" as const,
        ratio: "1",
      },
      {
        symbol: "AAPL261218C00235000",
        option_type: "CALL" as const,
        strike_price: "235",
        expiry: "2026-12-18",
        multiplier: "100",
        side: "SELL" as const,
        ratio: "1",
      },
    ];
    // the form said LV3 (stale); the account is LV1 upstream: the action checks again
    const r = await placeOrderTicket(
      ticket({
        account_id: ACCOUNTS.optionsLv1,
        instrument_type: "OPTION",
        symbol: "",
        quantity: "1",
        limit_price: "1.50",
        account_option_level: "LV3",
        legs,
      }),
    );
    expect(r).toMatchObject({
      ok: false,
      code: "OPTION_LEVEL_TOO_LOW",
      fieldErrors: { legs: expect.stringContaining("needs option level LV3; the account has LV1") },
    });
  });

  it("support and compliance may not place", async () => {
    for (const role of ["support", "compliance"]) {
      session.staff = { ...OPS, role };
      expect(await placeOrderTicket(ticket())).toMatchObject({ ok: false, code: "FORBIDDEN" });
    }
  });
});

describe("pre-trade checks before Place order", () => {
  const placedAtSandbox = async (t: PlaceTicketValues) =>
    (await f.api.op("getOrder", "resource", { query: { account_id: t.account_id, client_order_id: t.client_order_id } })).status === 200;

  it("a limit price far from the market is shown on the preview and refused on place, unless overridden; the override is audited", async () => {
    const t = ticket({ limit_price: "150.00" });
    const preview = await previewOrderTicket(t);
    expect(preview.ok && preview.data.checks).toEqual([
      {
        code: "PRICE_BAND",
        field: "limit_price",
        overridable: true,
        message: "The limit price 150.00 USD is 34.4 % below the last price 228.5 USD (the band is 10 %).",
      },
    ]);
    const refused = await placeOrderTicket(t);
    expect(refused).toMatchObject({
      ok: false,
      code: "PRE_TRADE_CHECK",
      serverError: expect.stringContaining("Not placed. The limit price 150.00 USD is 34.4 % below"),
      fieldErrors: { limit_price: expect.stringContaining("34.4 % below") },
    });
    expect(await placedAtSandbox(t)).toBe(false);

    const placed = await placeOrderTicket({ ...t, overrides: ["PRICE_BAND"] });
    expect(placed).toMatchObject({ ok: true });
    expect(await placedAtSandbox(t)).toBe(true);
    const audit = (await listAudit(db().engine, { action: "orders.place" })).rows.filter((a) => a.idempotencyKey === t.client_order_id);
    expect(audit.map((a) => [a.outcome, (a.input as { overrides?: string[] }).overrides])).toEqual([
      ["success", ["PRICE_BAND"]],
      ["failure", []],
    ]);
  });

  it("the band follows the market: the same price passes once the market is near it", async () => {
    await setPrice(f.api, "AAPL", "155.00");
    const t = ticket({ limit_price: "150.00" });
    expect(await placeOrderTicket(t)).toMatchObject({ ok: true });
  });

  it("a fractional quantity the instrument or the account does not take is refused, not overridable", async () => {
    // a preferred share: not fractionable on its instrument card
    const preferred = ticket({ symbol: "JPM.PRD", quantity: "1.5", limit_price: "25.00" });
    expect(await placeOrderTicket({ ...preferred, overrides: ["PRICE_BAND"] })).toMatchObject({
      ok: false,
      code: "PRE_TRADE_CHECK",
      fieldErrors: { quantity: "JPM.PRD does not trade in fractions: whole shares only." },
    });
    const stock = ticket({ quantity: "1.5" });
    // the preview says so on the quantity, in the desk's words (the upstream's preview refuses it too)
    expect(await previewOrderTicket(stock)).toMatchObject({
      ok: false,
      code: "PRE_TRADE_CHECK",
      fieldErrors: { quantity: "The account may not trade fractional shares: whole shares only." },
    });
    expect(await placeOrderTicket(stock)).toMatchObject({ ok: false, code: "PRE_TRADE_CHECK" });
    expect(await placedAtSandbox(preferred)).toBe(false);
    expect(await placedAtSandbox(stock)).toBe(false);
  });

  it("an order the buying power cannot pay for is refused before it is sent", async () => {
    const preview = await previewOrderTicket(ticket({ account_id: ACCOUNTS.cash, quantity: "100000" }));
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    expect(preview.data.checks).toEqual([
      expect.objectContaining({
        code: "BUYING_POWER",
        overridable: false,
        message: expect.stringMatching(/^The account's USD buying power would be -/),
      }),
    ]);
    const t = ticket({ account_id: ACCOUNTS.cash, quantity: "100000" });
    expect(await placeOrderTicket(t)).toMatchObject({
      ok: false,
      code: "PRE_TRADE_CHECK",
      serverError: expect.stringContaining("cannot pay for it"),
    });
    expect(await placedAtSandbox(t)).toBe(false);
  });

  it("a repeat of a placed ticket whose own hold now fails the buying-power check answers the placed order", async () => {
    const balance = await f.api.op("getBalance", "resource", { query: { account_id: ACCOUNTS.cash } });
    const bp = Number(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the response body is read loosely
      (balance.body.account_currency_assets as any[]).find((a) => a.currency === "USD").buying_power,
    );
    // a quantity that just fits once: the second preview sees the first order's hold
    const quantity = String(Math.floor((bp * 0.8) / 220));
    const t = ticket({ account_id: ACCOUNTS.cash, quantity });
    const first = await placeOrderTicket(t);
    expect(first).toMatchObject({ ok: true });
    const preview = await previewOrderTicket(t);
    expect(preview.ok && preview.data.checks.map((c) => c.code)).toEqual(["BUYING_POWER"]);
    const again = await placeOrderTicket(t);
    expect(again).toMatchObject({ ok: true });
    expect(again.ok && again.data.orders[0].order_id).toBe(first.ok && first.data.orders[0].order_id);
  });
});

describe("exercising a contract out of the money", () => {
  it("asks for confirmation (nothing sent), and exercises once confirmed; the confirmation is audited", async () => {
    const acct = ACCOUNTS.optionsLv2;
    await fund(f.api, acct, "100000.00");
    const list = await f.api.op("listOptionContracts", "legacy", { query: { root_symbol: "AAPL", option_type: "CALL", page_size: 50 } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the response body is read loosely
    const call = (list.body as any[]).sort((a, b) => Number(b.strike_price) - Number(a.strike_price))[0];
    await setPrice(f.api, call.symbol, "1.00", { category: "US_OPTION" });
    const buy = stock({ instrument_type: "OPTION", symbol: call.symbol, limit_price: "1.10", quantity: "1", time_in_force: "GTC" });
    expect((await place(f.api, acct, [buy])).status).toBe(200);
    expect(await position(f.api, acct, call.symbol)).toBe("1");
    await setPrice(f.api, "AAPL", String(Number(call.strike_price) - 20));

    const request = {
      account_id: acct,
      client_request_id: `ex_t${process.pid}`,
      symbol: call.symbol,
      quantity: "1",
      exercise_type: "EXERCISE" as const,
    };
    const refused = await exerciseOption(request);
    expect(refused).toMatchObject({
      ok: false,
      code: "EXERCISE_OUT_OF_THE_MONEY",
      serverError: expect.stringMatching(
        /^This call is out of the money: it buys AAPL at [\d.]+ while it trades at [\d.]+\. Confirm to exercise it anyway\.$/,
      ),
    });
    expect(await position(f.api, acct, call.symbol)).toBe("1");

    expect(await exerciseOption({ ...request, confirm_out_of_money: true })).toMatchObject({ ok: true, data: { status: "COMPLETED" } });
    expect(await position(f.api, acct, call.symbol)).toBe("0");
    const audit = (await listAudit(db().engine, { action: "orders.exercise" })).rows;
    expect(audit.map((a) => [a.outcome, (a.input as { confirm_out_of_money?: boolean }).confirm_out_of_money])).toEqual([
      ["success", true],
      ["failure", false],
    ]);
  });
});
