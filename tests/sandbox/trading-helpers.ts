import { afterAll, beforeAll } from "vitest";
import type { StartSandboxOptions } from "@/server/sandbox";
import { engines, rid, seedAccountId, startFixture, type Fixture } from "./fixture";
import type { SignedClient } from "../helpers/signed-fetch";
import { usStockOrder } from "../helpers/orders";

/**
 * Helpers of the trading conformance tests. The market clock is pinned (POST /sandbox/market/clock) so sessions never
 * depend on the wall clock: US_CORE = Tue 2026-11-17 10:00 New York, HK_CORE = the same day 10:00 Hong Kong.
 * The market only moves through control calls (no timer), so every fill below is caused by the test.
 */
export const US_CORE = "2026-11-17T15:00:00Z";
export const HK_CORE = "2026-11-17T02:00:00Z";
export { engines, rid, seedAccountId };

/** Seed accounts (see server/sandbox/seed/accounts.ts): all ACTIVE. */
export const ACCOUNTS = {
  /** MARGIN, US + HK, no options */ margin: seedAccountId(2),
  /** CASH, US + HK + CN */ cash: seedAccountId(0),
  /** MARGIN, US options LV2 */ optionsLv2: seedAccountId(13),
  /** CASH, US options LV1 */ optionsLv1: seedAccountId(9),
  /** MARGIN, US + HK + CN */ marginCn: seedAccountId(10),
};

export async function startTrading(opts: StartSandboxOptions = {}): Promise<Fixture> {
  const f = await startFixture(engines[0], opts);
  await clock(f.api, US_CORE);
  return f;
}

/**
 * A trading fixture (startTrading's) for the file or describe block this is called in: started before its tests,
 * within 60 s; closed after them. The object answered is filled in place when the fixture has started, so the tests
 * and hooks read it directly.
 */
export function withTrading(opts: StartSandboxOptions = {}): Fixture {
  const f = {} as Fixture;
  beforeAll(async () => {
    Object.assign(f, await startTrading(opts));
  }, 60_000);
  afterAll(async () => f.close?.());
  return f;
}

export async function clock(api: SignedClient, now: string | null, advanceSeconds?: number) {
  const r = await api.call("POST", "/sandbox/market/clock", {
    body: { now, ...(advanceSeconds ? { advance_seconds: advanceSeconds } : {}) },
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body;
}

export async function setPrice(
  api: SignedClient,
  symbol: string,
  price: string,
  o: { market?: string; liquidity?: string; category?: string } = {},
) {
  const r = await api.call("POST", "/sandbox/market/price", { body: { symbol, price, ...o } });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body;
}

export type Leg = Record<string, unknown>;
export const stock = (o: Leg = {}): Leg => usStockOrder({ client_order_id: rid("o"), quantity: "10", ...o });

export const place = (api: SignedClient, account: string, orders: Leg[], extra: Record<string, unknown> = {}) =>
  api.op("placeOrder", "resource", { body: { account_id: account, new_orders: orders, ...extra } });

export async function order(api: SignedClient, account: string, clientOrderId: string) {
  const r = await api.op("getOrder", "resource", { query: { account_id: account, client_order_id: clientOrderId } });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
  return r.body.orders.find((o: any) => o.client_order_id === clientOrderId);
}

export async function position(api: SignedClient, account: string, symbol: string): Promise<string> {
  const r = await api.op("listPositions", "resource", { query: { account_id: account } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
  return r.body.data.find((p: any) => p.symbol === symbol)?.quantity ?? "0";
}

export async function fund(api: SignedClient, account: string, amount: string, currency = "USD") {
  const r = await api.op("createInstantFunding", "resource", {
    body: { account_id: account, client_request_id: rid("fund"), type: "DEPOSIT", amount, currency },
  });
  if (r.body.status !== "COMPLETED") throw new Error(JSON.stringify(r.body));
}
