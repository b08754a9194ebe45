import * as grpc from "@grpc/grpc-js";
import { describe, expect, it, vi } from "vitest";
import type { SignatureAlgorithm } from "@/server/wire/signing";
import { openSubscription } from "@/server/wire/events/subscribe";
import { isEventMessage } from "@/server/wire/events/proto";
import { EVENT, MAX_STREAMS, startEventServer } from "@/server/sandbox/trading/events/grpc-server";
import { emit } from "@/server/sandbox/trading/events/outbox";
import { until } from "../helpers/until";
import { ACCOUNTS, clock, fund, place, rid, setPrice, stock, US_CORE, withTrading } from "./trading-helpers";

/** The gRPC event stream: signed subscription, trade/funding/journal/account/master-data events, resume, drop, silence, pings. */
const f = withTrading({ grpcPort: 0, pingMs: 100 });

interface Msg {
  eventType: number;
  subscribeType: number;
  payload: string;
  /** When the sandbox wrote the message (its Date.now(), in this process). */
  timestamp: string;
}
interface Stream {
  msgs: Msg[];
  events: () => { id: string; event_type: string; payload: Record<string, unknown> }[];
  error?: grpc.ServiceError;
  cancel(): void;
}

function subscribe(
  o: { payload?: Record<string, unknown>; accounts?: string[]; secret?: string; algorithm?: SignatureAlgorithm } = {},
): Stream {
  const { call, close } = openSubscription({
    target: `127.0.0.1:${f.sb.grpcPort}`,
    appKey: "brokerdesk-demo-key",
    appSecret: o.secret ?? "brokerdesk-demo-secret",
    algorithm: o.algorithm,
    payload: o.payload,
    accounts: o.accounts,
  });
  const s: Stream = {
    msgs: [],
    cancel: close,
    events: () => s.msgs.filter((m) => isEventMessage(m.eventType)).map((m) => JSON.parse(m.payload)),
  };
  call.on("data", (m: Msg) => s.msgs.push(m));
  call.on("error", (e: grpc.ServiceError) => (s.error = e));
  return s;
}

const acct = ACCOUNTS.margin;

describe("gRPC EventService.Subscribe", () => {
  it("a wrong signature gets AuthError, then UNAUTHENTICATED", async () => {
    const s = subscribe({ secret: "wrong" });
    await until(() => s.error);
    expect(s.msgs[0]?.eventType).toBe(EVENT.AuthError);
    expect(s.error!.code).toBe(grpc.status.UNAUTHENTICATED);
    s.cancel();
  });

  it("trade events: FINAL_FILLED with commission and fees, MODIFY_SUCCESS, CANCEL_SUCCESS and the failure scenes; pings", async () => {
    const s = subscribe({ algorithm: "HMAC-SHA1" });
    await until(() => s.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));
    await setPrice(f.api, "KO", "60.00");
    const filled = stock({ symbol: "KO", limit_price: "61.00", quantity: "3" });
    await place(f.api, acct, [filled]);
    const fill = await until(() =>
      s.events().find((e) => e.payload.client_order_id === filled.client_order_id && e.payload.scene_type === "FINAL_FILLED"),
    );
    expect(fill).toMatchObject({
      event_type: "TRADE",
      payload: {
        order_status: "FILLED",
        filled_qty: "3",
        biz_type: "TRADE",
        category: "US_STOCK",
        instrument_id: expect.any(String),
        actual_commission: expect.any(String),
        receivable_commission: expect.any(String),
        fees: expect.any(Array),
        filled_time: expect.stringMatching(/\+0000$/),
      },
    });
    const open = stock({ symbol: "KO", limit_price: "50.00", quantity: "1" });
    await place(f.api, acct, [open]);
    await f.api.op("replaceOrder", "resource", {
      body: { account_id: acct, modify_orders: [{ combo_type: "NORMAL", client_order_id: open.client_order_id, limit_price: "51.00" }] },
    });
    await f.api.op("cancelOrder", "resource", { body: { account_id: acct, client_order_id: open.client_order_id } });
    await f.api.op("cancelOrder", "resource", { body: { account_id: acct, client_order_id: open.client_order_id } });
    await f.api.op("replaceOrder", "resource", {
      body: { account_id: acct, modify_orders: [{ combo_type: "NORMAL", client_order_id: filled.client_order_id, limit_price: "1.00" }] },
    });
    await place(f.api, acct, [stock({ symbol: "KO", quantity: "1000000" })]);
    const scenes = await until(() => {
      const got = s
        .events()
        .filter((e) => e.event_type === "TRADE")
        .map((e) => e.payload.scene_type);
      return ["MODIFY_SUCCESS", "CANCEL_SUCCESS", "CANCEL_FAILED", "MODIFY_FAILED", "PLACE_FAILED"].every((x) => got.includes(x)) && got;
    });
    expect(scenes).toContain("FINAL_FILLED");
    const modify = s.events().find((e) => e.payload.scene_type === "MODIFY_SUCCESS")!;
    expect(modify.payload.order_status).toBe("SUBMITTED");
    expect(s.msgs.some((m) => m.eventType === EVENT.Ping)).toBe(true);
    s.cancel();
  });

  it("funding, journal, account and master-data events; the accounts filter", async () => {
    const s = subscribe({ accounts: [acct] });
    await until(() => s.msgs.length > 0);
    await fund(f.api, acct, "10.00");
    await f.api.op("createCashJournal", "resource", {
      body: { client_request_id: rid("cj"), from_account: acct, to_account: ACCOUNTS.cash, amount: "1.00", currency: "USD" },
    });
    await fund(f.api, ACCOUNTS.cash, "10.00"); // another account: filtered out
    await f.api.call("POST", "/sandbox/events/publish", {
      body: { event_type: "MASTER_DATA", payload: { biz_type: "CALENDAR_UPDATE", market: "US" } },
    });
    const got = await until(() => {
      const e = s.events();
      return (
        e.some((x) => x.event_type === "FUNDING") &&
        e.some((x) => x.event_type === "JOURNAL") &&
        e.some((x) => x.event_type === "MASTER_DATA") &&
        e
      );
    });
    expect(got.find((e) => e.event_type === "FUNDING")!.payload).toMatchObject({
      biz_type: "INSTANT_FUNDING",
      status: "COMPLETED",
      account_id: acct,
    });
    expect(got.find((e) => e.event_type === "JOURNAL")!.payload).toMatchObject({ biz_type: "CASH_JOURNAL", journal_type: "CASH" });
    expect(got.filter((e) => e.event_type === "FUNDING")).toHaveLength(1);
    s.cancel();

    const a = subscribe({ payload: { event_types: ["ACCOUNT"] } });
    await until(() => a.msgs.length > 0);
    await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("up"), account_id: acct, commission_code: "COMMISSION_GROUP_2" },
    });
    const ev = await until(() => a.events()[0]);
    expect(ev).toMatchObject({ event_type: "ACCOUNT", payload: { biz_type: "ACCOUNT_UPDATE", account_id: acct } });
    a.cancel();
  });

  it("a journal reaches the subscribers of both its accounts, and no other account's", async () => {
    const from = ACCOUNTS.margin;
    const to = ACCOUNTS.cash;
    const third = ACCOUNTS.marginCn;
    const streams = [from, to, third].map((a) => subscribe({ accounts: [a] }));
    for (const x of streams) await until(() => x.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));
    const crid = rid("cj");
    await f.api.op("createCashJournal", "resource", {
      body: { client_request_id: crid, from_account: from, to_account: to, amount: "1.00", currency: "USD" },
    });
    // Ids are delivered in order: once each stream has its own account's later deposit, the journal came before it or never.
    for (const [i, a] of [from, to, third].entries()) {
      await fund(f.api, a, "1.00");
      await until(() => streams[i].events().find((e) => e.event_type === "FUNDING" && e.payload.account_id === a));
    }
    const journals = streams.map((x) => x.events().filter((e) => e.event_type === "JOURNAL" && e.payload.client_request_id === crid));
    expect(journals.map((j) => j.length)).toEqual([1, 1, 0]);
    expect(journals[1][0]).toMatchObject({ account_id: from, payload: { from_account: from, to_account: to, journal_type: "CASH" } });
    for (const x of streams) x.cancel();
  });

  it("event type values as the official SDKs' samples switch on: TRADE as Order (1024) with subscribeType 1, others as 5", async () => {
    const s = subscribe({ accounts: [acct] });
    await until(() => s.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));
    const o = stock({ symbol: "KO", limit_price: "1.00", quantity: "1" });
    await place(f.api, acct, [o]);
    await f.api.op("cancelOrder", "resource", { body: { account_id: acct, client_order_id: o.client_order_id } });
    await fund(f.api, acct, "1.00");
    const typed = (type: string) =>
      s.msgs.filter((m) => m.eventType > EVENT.SubscribeExpired && (JSON.parse(m.payload) as { event_type: string }).event_type === type);
    await until(() => typed("TRADE").length && typed("FUNDING").length);
    // PY webull/trade/events/types.py: EVENT_TYPE_ORDER = 1024, ORDER_STATUS_CHANGED = 1; Java EventType.Order(1024).
    expect(new Set(typed("TRADE").map((m) => `${m.eventType}/${m.subscribeType}`))).toEqual(new Set(["1024/1"]));
    expect(new Set(typed("FUNDING").map((m) => m.eventType))).toEqual(new Set([5]));
    s.cancel();
  });

  it("corporate actions: one CORPORATE_ACTION event when the market clock reaches the ex-date", async () => {
    const ca = (await f.api.op("getCorporateAction", "resource", { query: { event_id: "CA-NVDA-SPLIT-1" } })).body;
    const s = subscribe({ payload: { event_types: ["CORPORATE_ACTION"] } });
    await until(() => s.msgs.length > 0);
    await clock(f.api, `${ca.ex_date}T15:00:00Z`);
    await clock(f.api, `${ca.ex_date}T16:00:00Z`);
    const got = await until(() => s.events().find((e) => e.payload.event_id === "CA-NVDA-SPLIT-1"));
    expect(got.payload).toMatchObject({ biz_type: "EX_DATE_REACHED", event_type: "FORWARD_SPLIT" });
    await new Promise((r) => setTimeout(r, 300));
    expect(s.events().filter((e) => e.payload.event_id === "CA-NVDA-SPLIT-1")).toHaveLength(1);
    await clock(f.api, US_CORE);
    s.cancel();
  });

  it("resume: a new stream from the last id seen gets every missed event once, in order", async () => {
    const s = subscribe();
    await until(() => s.msgs.length > 0);
    await fund(f.api, acct, "1.00");
    const seen = await until(() => s.events()[0]);
    s.cancel();
    const missed = [];
    for (let i = 0; i < 5; i += 1) {
      await fund(f.api, acct, `${i + 2}.00`);
    }
    const last = (await f.api.call("GET", "/sandbox/events/last-id")).body.last_event_id;
    for (let i = Number(seen.id) + 1; i <= Number(last); i += 1) missed.push(String(i));
    const r = subscribe({ payload: { last_event_id: seen.id } });
    const got = await until(() => (r.events().length >= missed.length ? r.events() : undefined));
    expect(got.map((e) => e.id)).toEqual(missed);
    expect(got.filter((e) => e.event_type === "FUNDING")).toHaveLength(5);
    r.cancel();
  });

  it("resume keeps numeric id order past 999 (ids were once sorted as text)", async () => {
    const from = (await f.api.call("GET", "/sandbox/events/last-id")).body.last_event_id;
    const batch = Array.from({ length: 1100 }, (_, n) => ({
      event_type: "MASTER_DATA" as const,
      payload: { biz_type: "CALENDAR_UPDATE", n },
    }));
    await f.sb.engine.transaction((tx) => emit(tx, batch, new Date()));
    const r = subscribe({ payload: { last_event_id: from, event_types: ["MASTER_DATA"] } });
    const got = await until(() => (r.events().length >= 1100 ? r.events() : undefined), 15_000);
    const ids = got.map((e) => Number(e.id));
    expect(ids).toHaveLength(1100);
    expect(ids.every((id, i) => i === 0 || id === ids[i - 1] + 1)).toBe(true);
    expect(got.map((e) => e.payload.n)).toEqual(batch.map((b) => b.payload.n));
    r.cancel();
  });

  it("control calls: silent stops events and pings; drop ends streams with UNAVAILABLE", async () => {
    const s = subscribe();
    await until(() => s.msgs.length > 0);
    await f.api.call("POST", "/sandbox/events/silence", { body: { silent: true } });
    // Pings written before the silence may still be on their way, however late: a message says when it was written,
    // and nothing may be written while the silence lasts (six pings' time, for a stream that still pinged).
    const silenced = Date.now();
    await fund(f.api, acct, "1.00");
    await new Promise((r) => setTimeout(r, 600));
    expect(s.events().some((e) => e.event_type === "FUNDING")).toBe(false);
    const unsilencing = Date.now();
    await f.api.call("POST", "/sandbox/events/silence", { body: { silent: false } });
    await until(() => s.events().some((e) => e.event_type === "FUNDING"));
    // A stream delivers in order: whatever it wrote while silent came before the deposit, which was held till the end.
    const written = (m: Msg) => Number(m.timestamp);
    expect(s.msgs.filter((m) => written(m) > silenced && written(m) < unsilencing)).toEqual([]);
    const deposit = s.msgs.find((m) => isEventMessage(m.eventType) && JSON.parse(m.payload).event_type === "FUNDING")!;
    expect(written(deposit)).toBeGreaterThanOrEqual(unsilencing);
    await f.api.call("POST", "/sandbox/events/drop", { body: {} });
    await until(() => s.error);
    expect(s.error!.code).toBe(grpc.status.UNAVAILABLE);
    s.cancel();
  });

  it("drop with refuse_ms refuses new subscriptions with UNAVAILABLE for that long, then accepts them again", async () => {
    await f.api.call("POST", "/sandbox/events/drop", { body: { refuse_ms: 400 } });
    const refused = subscribe();
    await until(() => refused.error);
    expect(refused.error!.code).toBe(grpc.status.UNAVAILABLE);
    await new Promise((r) => setTimeout(r, 450));
    const s = subscribe();
    await until(() => s.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));
    s.cancel();
    const bad = await f.api.call("POST", "/sandbox/events/drop", { body: { refuse_ms: -1 } });
    expect(bad.status).toBe(417);
  });

  it("streams whose subscribers left while they started free their places: after more than MAX_STREAMS of them, one more is served", async () => {
    // The sandbox's database held: every stream's start stops at its cursor's read, after its authentication.
    let release!: () => void;
    const held = f.sb.engine.transaction(() => new Promise<void>((r) => (release = r)));
    const authenticated = vi.spyOn(f.sb.sandbox.nonces, "use");
    const n = MAX_STREAMS + 20;
    const left: Stream[] = [];
    try {
      for (let i = 0; i < n; i++) left.push(subscribe());
      await until(() => authenticated.mock.calls.filter(([key]) => key.includes(":grpc:")).length >= n, 20_000, "every stream to start");
      // Their subscribers leave. The cancels reach the sandbox within a moment on loopback; one that came later would
      // end its stream through the stream's own handlers, and this test would prove less, never fail wrongly.
      for (const s of left) s.cancel();
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      release();
      await held;
      authenticated.mockRestore();
    }
    // Every cancelled stream runs the rest of its start; none may keep a place once it has.
    let served: Stream | undefined;
    await until(
      async () => {
        const s = subscribe();
        await until(() => s.msgs[0] ?? s.error, 10_000, "an answer to the subscription");
        if (s.msgs[0]?.eventType === EVENT.SubscribeSuccess) return (served = s);
        s.cancel();
        return undefined;
      },
      20_000,
      "a subscription served after the cancelled ones",
    );
    served?.cancel();
  });

  it("an event server that cannot bind (its port taken) leaves no timer of its own running", async () => {
    const created = vi.spyOn(globalThis, "setInterval");
    const cleared = vi.spyOn(globalThis, "clearInterval");
    try {
      await expect(startEventServer(f.sb.sandbox, "127.0.0.1", f.sb.grpcPort!)).rejects.toThrow();
      const running = created.mock.results.map((r) => r.value).filter((t) => !cleared.mock.calls.some(([c]) => c === t));
      expect(running).toEqual([]);
    } finally {
      created.mockRestore();
      cleared.mockRestore();
    }
  });
});
