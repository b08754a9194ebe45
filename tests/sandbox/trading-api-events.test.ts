import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSubscription } from "@/server/wire/events/subscribe";
import { EVENT } from "@/server/sandbox/trading/events/grpc-server";
import type { Fixture } from "./fixture";
import { until } from "../helpers/until";
import { TradingSdkClient } from "./trading-api-client";
import { ACCOUNTS, fund, place, setPrice, startTrading, stock } from "./trading-helpers";

/** Subscribe Trade Events with Trading API credentials: only the TRADE events of the credential's own account. */
let f: Fixture;
beforeAll(async () => {
  f = await startTrading({ grpcPort: 0, pingMs: 100 });
}, 60_000);
afterAll(async () => f?.close());

interface Msg {
  eventType: number;
  payload: string;
}

function subscribe(appKey: string, appSecret: string, o: { payload?: Record<string, unknown>; accounts?: string[] } = {}) {
  const { call, close } = openSubscription({
    target: `127.0.0.1:${f.sb.grpcPort}`,
    appKey,
    appSecret,
    payload: o.payload,
    accounts: o.accounts,
  });
  const s = {
    msgs: [] as Msg[],
    error: undefined as grpc.ServiceError | undefined,
    close,
    events: () =>
      s.msgs
        .filter((m) => m.eventType === EVENT.Event)
        .map((m) => JSON.parse(m.payload) as { event_type: string; account_id?: string; payload: Record<string, unknown> }),
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

    const fill = await until(() =>
      s.events().find((e) => e.payload.client_order_id === mine.client_order_id && e.payload.scene_type === "FINAL_FILLED"),
    );
    expect(fill).toMatchObject({
      event_type: "TRADE",
      payload: {
        order_status: "FILLED",
        actual_commission: expect.any(String),
        receivable_commission: expect.any(String),
        fees: expect.any(Array),
      },
    });
    // Give the other account's fill and the deposit time to arrive if they were (wrongly) going to.
    await new Promise((r) => setTimeout(r, 400));
    expect(s.events().every((e) => e.event_type === "TRADE" && e.payload.account_id === own)).toBe(true);
    s.close();

    await f.api.call("POST", "/sandbox/trading-credentials/revoke", { body: { app_key: creds.app_key } });
    const refused = subscribe(creds.app_key, creds.app_secret);
    await until(() => refused.error);
    expect(refused.error!.code).toBe(grpc.status.UNAUTHENTICATED);
    refused.close();
  });
});
