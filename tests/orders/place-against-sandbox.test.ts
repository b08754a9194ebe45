import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { blankTicket, type PlaceTicketValues } from "@/lib/schemas/order-ticket";
import { placeOrderTicket } from "@/server/actions/orders-place";
import { previewOrderTicket } from "@/server/actions/orders-preview";
import { listAudit } from "@/server/audit/list";
import { setBrokerForTests } from "@/server/broker";
import { withAppDb } from "../helpers/app-db";
import { ACCOUNTS, clock, order, startTrading, US_CORE } from "../sandbox/trading-helpers";
import type { Fixture } from "../sandbox/fixture";
import { sandboxBroker } from "../helpers/sandbox-broker";

/**
 * The ticket's preview and place actions, through the action wrapper, against a started sandbox: one order for
 * two identical submissions, upstream rule errors on their fields, the order in the desk's read model at once.
 */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => session.staff }));
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
});

let n = 0;
const ticket = (o: Partial<PlaceTicketValues> = {}): PlaceTicketValues => ({
  ...blankTicket(),
  account_id: ACCOUNTS.margin,
  symbol: "AAPL",
  quantity: "3",
  limit_price: "100.00",
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
    const t = ticket({ combo: "MASTER", profit_enabled: true, profit_limit_price: "300", loss_enabled: true, loss_stop_price: "80" });
    const r = await placeOrderTicket(t);
    expect(r.ok && r.data.orders.map((o) => o.combo_type)).toEqual(["MASTER", "STOP_PROFIT", "STOP_LOSS"]);
    expect((await order(f.api, ACCOUNTS.margin, `${t.client_order_id}-tp`)).status).toBe("PENDING");
  });

  it("an upstream rule (HK lot size) comes back on its field; nothing is placed", async () => {
    // the form's lot check used what the lookup said; a stale lot size is caught by the upstream
    const t = ticket({ market: "HK", symbol: "00700", lot_size: "1", quantity: "150", limit_price: "400" });
    const r = await placeOrderTicket(t);
    expect(r).toMatchObject({ ok: false, code: "INVALID_LOT_SIZE", fieldErrors: { quantity: expect.any(String) } });
    const history = await f.api.op("getOrder", "resource", { query: { account_id: ACCOUNTS.margin, client_order_id: t.client_order_id } });
    expect(history.status).not.toBe(200);
  });

  it("a short sale on a cash account lands on the side", async () => {
    const r = await placeOrderTicket(ticket({ account_id: ACCOUNTS.cash, side: "SHORT", quantity: "1", limit_price: "500" }));
    expect(r).toMatchObject({ ok: false, code: "SHORT_NOT_ALLOWED", fieldErrors: { side: expect.any(String) } });
  });

  it("preview: commission and fees of the upstream, and the buying power it holds", async () => {
    const r = await previewOrderTicket(ticket({ quantity: "10", limit_price: "150.00" }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.currency).toBe("USD");
    expect(r.data.commission.actual).toMatch(/^\d+\.\d+$/);
    expect(r.data.hold).toBe(r.data.estimated_cost);
    expect(Number(r.data.buying_power_after)).toBeCloseTo(Number(r.data.buying_power) - Number(r.data.estimated_cost), 2);
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
