import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { openSubscription } from "@/server/wire/events/subscribe";
import { EVENT } from "@/server/wire/events/proto";
import { until } from "../helpers/until";
import { TradingSdkClient } from "./trading-api-client";
import { ACCOUNTS, fund, place, setPrice, stock, withTrading } from "./trading-helpers";

/**
 * Subscribe Trade Events with Trading API credentials: only the TRADE events of the credential's own account, as the
 * official SDKs' samples read them; a revoked credential's streams end.
 */
const f = withTrading({ grpcPort: 0, pingMs: 100 });

interface Msg {
  eventType: number;
  subscribeType: number;
  payload: string;
}

function subscribe(appKey: string, appSecret: string, o: { payload?: Record<string, unknown>; accounts?: string[] } = {}) {
  const { call, close } = openSubscription({
    target: `127.0.0.1:${f.sb.grpcPort}`,
    appKey,
    appSecret,
    payload: o.payload,
    accounts: o.accounts,
    // What both SDKs' SubscribeRequest sends (PY trade_events_client.py, Java SubscribeRequest).
    subscribeType: 3,
  });
  const s = {
    msgs: [] as Msg[],
    error: undefined as grpc.ServiceError | undefined,
    close,
    /** Every message that is not a control message (eventType above 4, as the SDKs tell them). */
    others: () => s.msgs.filter((m) => m.eventType > EVENT.SubscribeExpired),
    /**
     * The order events as the SDKs' samples take them: PY `samples/trade/trade_event_client.py` and Java
     * `TradeEventsClient` keep eventType Order (1024) with subscribeType ORDER_STATUS_CHANGED (1) and read
     * `payload['request_id']`, `client_order_id`, `order_status` at the payload's top.
     */
    orders: () =>
      s.msgs.filter((m) => m.eventType === 1024 && m.subscribeType === 1).map((m) => JSON.parse(m.payload) as Record<string, unknown>),
  };
  call.on("data", (m: Msg) => s.msgs.push(m));
  call.on("error", (e: grpc.ServiceError) => (s.error = e));
  return s;
}

describe("Trading API trade events", () => {
  it("an account holder's subscription gets its own account's TRADE events and nothing else", async () => {
    const own = ACCOUNTS.margin;
    const other = ACCOUNTS.cash;
    const creds = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: own } })).body;
    // Asks for another account and for funding events: the sandbox narrows it to its own TRADE events.
    const s = subscribe(creds.app_key, creds.app_secret, { accounts: [other], payload: { event_types: ["FUNDING"] } });
    await until(() => s.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));

    await setPrice(f.api, "KO", "60.00");
    const holder = new TradingSdkClient(f.sb.url, creds.app_key, creds.app_secret);
    await holder.login();
    const mine = stock({ symbol: "KO", limit_price: "61.00", quantity: "1" });
    expect((await holder.place_order(own, [mine])).status).toBe(200);
    const theirs = stock({ symbol: "KO", limit_price: "61.00", quantity: "1" });
    await place(f.api, other, [theirs]);
    await fund(f.api, own, "10.00");

    const fill = await until(() => s.orders().find((e) => e.client_order_id === mine.client_order_id && e.scene_type === "FINAL_FILLED"));
    expect(fill).toMatchObject({
      biz_type: "TRADE",
      request_id: expect.any(String),
      account_id: own,
      order_status: "FILLED",
      actual_commission: expect.any(String),
      receivable_commission: expect.any(String),
      fees: expect.any(Array),
    });
    // Give the other account's fill and the deposit time to arrive if they were (wrongly) going to.
    await new Promise((r) => setTimeout(r, 400));
    expect(s.others().length).toBe(s.orders().length);
    expect(s.orders().every((e) => e.account_id === own)).toBe(true);
    s.close();
  });

  it("revoking a credential ends its open streams with AuthError and UNAUTHENTICATED; new ones are refused", async () => {
    const creds = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: ACCOUNTS.margin } })).body;
    const other = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: ACCOUNTS.margin } })).body;
    const open = subscribe(creds.app_key, creds.app_secret);
    const kept = subscribe(other.app_key, other.app_secret);
    await until(() => open.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));
    await until(() => kept.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));

    expect((await f.api.call("POST", "/sandbox/trading-credentials/revoke", { body: { app_key: creds.app_key } })).status).toBe(200);
    await until(() => open.error, 20_000, "the revoked key's open stream to end");
    expect(open.error!.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(open.msgs.at(-1)).toMatchObject({ eventType: EVENT.AuthError, payload: expect.stringContaining("revoked") });
    open.close();

    const refused = subscribe(creds.app_key, creds.app_secret);
    await until(() => refused.error);
    expect(refused.error!.code).toBe(grpc.status.UNAUTHENTICATED);
    refused.close();
    // Another key of the same account keeps its stream.
    expect(kept.error).toBeUndefined();
    kept.close();
  });
});
