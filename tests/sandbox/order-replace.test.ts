import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fixture } from "./fixture";
import { TradingSdkClient } from "./trading-api-client";
import { ACCOUNTS, order, place, setPrice, startTrading, stock } from "./trading-helpers";

/**
 * Replace as the official SDKs send it: the Trading API's replace needs no combo_type (the SDKs' replace samples,
 * e.g. PY `samples/trade/trade_client_v3_event.py`, send `{client_order_id, quantity, limit_price}`), the Broker
 * API's does (the spec's modify_orders). On both, a replace that changes nothing, or names a null or empty quantity,
 * is refused and leaves the order as it was.
 */
let f: Fixture;
let holder: TradingSdkClient;
const acct = ACCOUNTS.margin;

beforeAll(async () => {
  f = await startTrading();
  await setPrice(f.api, "MSFT", "400.00");
  const creds = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: acct } })).body;
  holder = new TradingSdkClient(f.sb.url, creds.app_key, creds.app_secret);
  await holder.login();
}, 60_000);
afterAll(async () => f?.close());

/** The status and error code of an answer of either client. */
const errorOf = (r: { status: number; body?: { error_code?: string } }) => ({ status: r.status, code: r.body?.error_code });

/** A resting MSFT buy at 300.00 × 2, placed through the Broker API. */
async function resting() {
  const o = stock({ symbol: "MSFT", limit_price: "300.00", quantity: "2" });
  expect((await place(f.api, acct, [o])).status).toBe(200);
  return o.client_order_id as string;
}

const brokerReplace = (change: Record<string, unknown>) =>
  f.api.op("replaceOrder", "resource", { body: { account_id: acct, modify_orders: [{ combo_type: "NORMAL", ...change }] } });
const tradingReplace = (change: Record<string, unknown>) => holder.replace_order(acct, [change]);

describe("replace", () => {
  it("the Trading API accepts a replace without combo_type, as the SDKs send it; the Broker API requires it", async () => {
    const id = await resting();
    const r = await tradingReplace({ client_order_id: id, quantity: "3", limit_price: "301.00" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ client_order_id: id });
    expect(await order(f.api, acct, id)).toMatchObject({ total_quantity: "3", limit_price: "301.00", status: "SUBMITTED" });
    // A combo_type the Trading API is given must still be the order's.
    expect(errorOf(await tradingReplace({ client_order_id: id, combo_type: "OTO", quantity: "4" }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });

    const noCombo = await f.api.op("replaceOrder", "resource", {
      body: { account_id: acct, modify_orders: [{ client_order_id: id, limit_price: "302.00" }] },
    });
    expect(errorOf(noCombo)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(noCombo.body.message).toContain("combo_type is required");
  });

  it.each([
    ["Broker API", brokerReplace],
    ["Trading API", tradingReplace],
  ] as const)("%s: a replace that changes nothing is refused with NOTHING_TO_MODIFY", async (_name, replace) => {
    const id = await resting();
    for (const change of [{}, { limit_price: "300" }, { quantity: "2.00", limit_price: "300.00", time_in_force: "DAY" }]) {
      const r = await replace({ client_order_id: id, ...change });
      expect(errorOf(r), JSON.stringify(change)).toEqual({ status: 417, code: "NOTHING_TO_MODIFY" });
      expect(r.body.message).toContain("changes nothing");
    }
    expect((await replace({ client_order_id: id, limit_price: "299.50" })).status).toBe(200);
  });

  it.each([
    ["Broker API", brokerReplace],
    ["Trading API", tradingReplace],
  ] as const)("%s: a null or empty quantity is refused, not read as 'unchanged'", async (_name, replace) => {
    const id = await resting();
    for (const quantity of [null, ""]) {
      const r = await replace({ client_order_id: id, quantity, limit_price: "305.00" });
      expect(errorOf(r), JSON.stringify(quantity)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
      expect(r.body.message).toContain("quantity");
    }
    expect(await order(f.api, acct, id)).toMatchObject({ total_quantity: "2", limit_price: "300.00" });
  });
});
