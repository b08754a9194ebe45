import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fixture } from "./fixture";
import { ACCOUNTS, order, place, position, setPrice, startTrading, stock } from "./trading-helpers";

/** Order types against the simulated market: each fills (or triggers) exactly when the pinned price crosses it. */
let f: Fixture;
beforeAll(async () => {
  f = await startTrading();
}, 60_000);
afterAll(async () => f?.close());

describe("order types (US stock)", () => {
  const acct = ACCOUNTS.margin;

  it("LIMIT: waits while the ask is above the limit, fills at the ask when it crosses", async () => {
    await setPrice(f.api, "AAPL", "200.00");
    const o = stock({ limit_price: "190.00", quantity: "5" });
    const r = await place(f.api, acct, [o]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ client_order_id: o.client_order_id, order_id: expect.any(String) });
    expect((await order(f.api, acct, o.client_order_id as string)).status).toBe("SUBMITTED");
    const before = Number(await position(f.api, acct, "AAPL"));
    await setPrice(f.api, "AAPL", "189.00");
    const done = await order(f.api, acct, o.client_order_id as string);
    expect(done).toMatchObject({ status: "FILLED", filled_quantity: "5", place_time: expect.stringMatching(/^\d{13}$/), filled_time_at: expect.any(String) });
    expect(Number(done.filled_price)).toBeLessThanOrEqual(190);
    expect(Number(await position(f.api, acct, "AAPL"))).toBe(before + 5);
  });
});
