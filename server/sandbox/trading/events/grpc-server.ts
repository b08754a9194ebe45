import "server-only";
import { timingSafeEqual } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { SIGNATURE_ALGORITHMS, type SignatureAlgorithm } from "@/server/wire/signing";
import { EVENT, RAW_BYTES, SUBSCRIBE_TYPE, subscribeServiceDefinitions, type ReceivedSubscribeRequest } from "@/server/wire/events/proto";
import { signSubscription } from "@/server/wire/events/signature";
import { CLOCK_SKEW_MS } from "../../auth";
import type { Sandbox } from "../../context";
import { findCredential } from "../../trading-api/credentials";
import { trading } from "../state";
import { EVENT_TYPES, lastEventId, readAfter } from "./outbox";

/**
 * gRPC EventService.Subscribe. A stream is authenticated from its signed metadata (AuthError, then
 * UNAUTHENTICATED, when it fails), answers SubscribeSuccess, then sends outbox events after the subscriber's
 * resume point, oldest first: TRADE events as eventType Order (1024) with subscribeType 1, the values the official
 * SDKs' samples switch on, the other categories as eventType Event (5); a broker's stream carries the JSON envelope
 * {id, event_type, timestamp, payload}, an account holder's (the SDKs' TradeEventsClient) the trade payload itself,
 * whose fields the SDKs' samples read at the top (request_id, client_order_id, order_status).
 * Request payload (JSON, optional): {"last_event_id": "<id>", "event_types": ["TRADE", ...]}. Without
 * last_event_id the stream starts at the newest event (only new ones). Pings every `pingMs`. Control calls end
 * every stream with UNAVAILABLE (drop) or stop all output (silent). Served at the SDKs' method path
 * `/grpc.trade.event.EventService/Subscribe` and at the older `/openapi.EventService/Subscribe`.
 */
export { EVENT };
export const MAX_STREAMS = 100;
const REVOKED = "Your authorization has been revoked.";

type Call = grpc.ServerWritableStream<ReceivedSubscribeRequest, unknown>;

/**
 * Checks the subscription's signature. The broker's app key sees every event; an account holder's Trading API key
 * (Subscribe Trade Events) sees only the TRADE events of its own virtual account, whatever the request asks for.
 */
async function authenticateCall(
  sb: Sandbox,
  call: Call,
): Promise<{ problem: string } | { problem?: undefined; holder?: { appKey: string; accountId: string } }> {
  const md = (k: string) => call.metadata.get(k)[0]?.toString();
  for (const k of ["x-app-key", "x-signature", "x-signature-algorithm", "x-signature-nonce", "x-timestamp", "x-signature-version"]) {
    if (!md(k)) return { problem: `Metadata ${k} is missing.` };
  }
  const appKey = md("x-app-key")!;
  const holder = appKey === sb.config.appKey ? undefined : await findCredential(sb.engine, appKey);
  if (appKey !== sb.config.appKey && !holder) return { problem: "Unknown app key." };
  const problem = authError(sb, call, md, holder?.app_secret ?? sb.config.appSecret);
  if (problem) return { problem };
  if (holder?.revoked_at) return { problem: REVOKED };
  return { holder: holder && { appKey, accountId: holder.account_id } };
}

function authError(sb: Sandbox, call: Call, md: (k: string) => string | undefined, appSecret: string): string | undefined {
  const algorithm = md("x-signature-algorithm") as SignatureAlgorithm;
  if (!SIGNATURE_ALGORITHMS.includes(algorithm)) return `Signature algorithm ${algorithm} is not supported.`;
  const ts = Date.parse(md("x-timestamp")!);
  const now = sb.config.now().getTime();
  if (Number.isNaN(ts) || Math.abs(ts - now) > CLOCK_SKEW_MS) return "x-timestamp is outside the allowed clock skew.";
  const headers = Object.fromEntries(
    ["x-app-key", "x-timestamp", "x-signature-version", "x-signature-algorithm", "x-signature-nonce"].map((k) => [k, md(k)!]),
  );
  // The digest covers the request bytes exactly as the client sent them (facts §1.4), never a re-encoding.
  const want = Buffer.from(signSubscription(headers, call.request[RAW_BYTES], appSecret));
  const given = Buffer.from(md("x-signature")!);
  if (want.length !== given.length || !timingSafeEqual(want, given)) return "x-signature is invalid.";
  if (!sb.nonces.use(`${md("x-app-key")}:grpc:${md("x-signature-nonce")}`, now)) return "x-signature-nonce was already used.";
  return undefined;
}

export async function startEventServer(sb: Sandbox, host: string, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const t = trading(sb);
  const server = new grpc.Server();
  const open = new Set<Call>();
  // One watcher for all streams: part 1's request hooks write events without waking the bus, so the newest id is
  // checked every 200 ms (one query, not one per stream) and streams are woken when it moved.
  let newest = await lastEventId(sb.engine);
  let checking = false;
  for (const service of subscribeServiceDefinitions()) {
    server.addService(service, {
      // A lost database connection while the stream starts (its authentication, its cursor) ends that stream, not the
      // sandbox: the subscriber reconnects.
      Subscribe: (call: Call) =>
        void subscribe(sb, call, open).catch(() => {
          open.delete(call);
          call.emit("error", { code: grpc.status.UNAVAILABLE, details: "The event service could not start the stream." });
        }),
    });
  }
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  // Started once the bind has succeeded (it fails on a port in use, and the sandbox goes on without the stream).
  const watcher = setInterval(() => {
    if (checking || !open.size) return;
    checking = true;
    lastEventId(sb.engine)
      .then((id) => {
        if (id !== newest) t.bus.emit("events");
        newest = id;
      })
      .catch(() => undefined)
      .finally(() => (checking = false));
  }, 200);
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(watcher);
        for (const c of open) c.end();
        t.bus.removeAllListeners("events");
        t.bus.removeAllListeners("revoked");
        server.tryShutdown(() => resolve());
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 1000).unref();
      }),
  };
}

const PAGE = 500;
type Page = { id: string; eventType: number; subscribeType?: number; json: string }[];
/** Full pages recently read, per sandbox, by cursor and filter: see eventPage. */
const fullPages = new WeakMap<Sandbox, Map<string, Promise<Page>>>();

/**
 * The next page of a stream, serialised. Streams at the same cursor with the same filter (a burst read by every
 * subscriber) share one read and one JSON serialisation per event, not one per stream. Only full pages are shared:
 * a full page after a cursor never changes (event ids commit in order), while a short one may be followed by events
 * committed since, which a stream woken for them must read afresh (so a read is shared once it is known to be full,
 * never while in flight). Shared pages are kept for two seconds. `bare` (an account holder's stream) sends each
 * event's payload without the envelope.
 */
async function eventPage(sb: Sandbox, cursor: string, types: string[], accounts: string[], bare: boolean): Promise<Page> {
  const byKey = fullPages.get(sb) ?? new Map<string, Promise<Page>>();
  fullPages.set(sb, byKey);
  const key = `${cursor}|${types.join(",")}|${accounts.join(",")}|${bare}`;
  const shared = byKey.get(key);
  if (shared) return shared;
  const read = readAfter(sb.engine, cursor, PAGE, { types, accounts }).then((rows) =>
    rows.map((e) => ({
      id: e.id,
      ...(e.event_type === "TRADE"
        ? { eventType: EVENT.Order, subscribeType: SUBSCRIBE_TYPE.OrderStatusChanged }
        : { eventType: EVENT.Event }),
      json: JSON.stringify(
        bare
          ? e.payload
          : {
              id: e.id,
              event_type: e.event_type,
              timestamp: new Date(e.created_at).toISOString(),
              account_id: e.account_id ?? undefined,
              payload: e.payload,
            },
      ),
    })),
  );
  const page = await read;
  if (page.length === PAGE && byKey.size < 1_000) {
    byKey.set(key, read);
    setTimeout(() => byKey.delete(key), 2_000).unref();
  }
  return page;
}

async function subscribe(sb: Sandbox, call: Call, open: Set<Call>) {
  const t = trading(sb);
  const requestId = String(call.metadata.get("x-signature-nonce")[0] ?? "").slice(0, 64);
  const send = (eventType: number, payload: string, subscribeType = call.request.subscribeType) =>
    call.write({
      eventType,
      subscribeType,
      contentType: "application/json",
      payload,
      requestId,
      timestamp: String(Date.now()),
    });
  const auth = await authenticateCall(sb, call);
  const problem = auth.problem;
  if (problem) {
    send(EVENT.AuthError, JSON.stringify({ message: problem }));
    call.emit("error", { code: grpc.status.UNAUTHENTICATED, details: problem });
    return;
  }
  if (Date.now() < t.streams.refuseUntil) {
    call.emit("error", {
      code: grpc.status.UNAVAILABLE,
      details: "The event service is unavailable (sandbox control: drop with refuse_ms).",
    });
    return;
  }
  if (open.size >= MAX_STREAMS) {
    send(EVENT.NumOfConnExceed, JSON.stringify({ message: `At most ${MAX_STREAMS} streams.` }));
    call.end();
    return;
  }
  let opts: { last_event_id?: string; event_types?: string[] } = {};
  try {
    opts = call.request.payload ? JSON.parse(call.request.payload) : {};
  } catch {
    opts = {};
  }
  const holder = auth.problem === undefined ? auth.holder : undefined;
  const types = holder ? ["TRADE"] : (opts.event_types ?? []).filter((x) => (EVENT_TYPES as readonly string[]).includes(x));
  const accounts = holder ? [holder.accountId] : call.request.accounts;
  let cursor = /^\d+$/.test(String(opts.last_event_id ?? "")) ? String(opts.last_event_id) : await lastEventId(sb.engine);
  open.add(call);
  send(EVENT.SubscribeSuccess, JSON.stringify({ last_event_id: cursor }));
  const epoch = t.streams.dropEpoch;
  let closed = false;
  let pumping = false;
  let again = false;
  const pump = async () => {
    if (pumping) return void (again = true);
    pumping = true;
    let failed = false;
    try {
      do {
        again = false;
        if (closed || t.streams.silent) break;
        const rows = await eventPage(sb, cursor, types, accounts, !!holder);
        for (const e of rows) {
          if (closed || t.streams.silent) break;
          if (!send(e.eventType, e.json, e.subscribeType)) await new Promise((r) => call.once("drain", r));
          cursor = e.id;
        }
        if (rows.length === PAGE) again = true;
      } while (again && !closed);
    } catch {
      // A lost database connection (or a closed engine during shutdown): read the page again in a moment, or the
      // stream would sit behind its cursor, pinging, until the next event wakes it.
      failed = true;
    } finally {
      pumping = false;
    }
    if (failed && !closed) setTimeout(() => void pump(), 500).unref();
  };
  const onEvents = () => void pump();
  t.bus.on("events", onEvents);
  // A revoked credential ends its open streams at once (AuthError, then UNAUTHENTICATED, which the SDKs do not retry).
  const onRevoked = (appKey: string) => {
    if (appKey !== holder?.appKey || closed) return;
    send(EVENT.AuthError, JSON.stringify({ message: REVOKED }));
    finish({ code: grpc.status.UNAUTHENTICATED, details: REVOKED });
  };
  t.bus.on("revoked", onRevoked);
  const poll = setInterval(() => {
    if (t.streams.dropEpoch !== epoch) finish({ code: grpc.status.UNAVAILABLE, details: "Stream dropped by the sandbox control API." });
  }, 100);
  const ping = setInterval(() => {
    if (!t.streams.silent && !closed) send(EVENT.Ping, "");
  }, t.pingMs);
  const finish = (error?: { code: grpc.status; details: string }) => {
    if (closed) return;
    closed = true;
    clearInterval(poll);
    clearInterval(ping);
    t.bus.off("events", onEvents);
    t.bus.off("revoked", onRevoked);
    open.delete(call);
    if (error) call.emit("error", error);
  };
  call.on("cancelled", () => finish());
  call.on("close", () => finish());
  call.on("error", () => finish());
  // A subscriber that left while the stream started (its authentication, its cursor) was heard by no handler above:
  // its stream ends now, or it would keep its place among MAX_STREAMS, its listeners and its timers for good.
  if (call.cancelled || call.destroyed) return finish();
  // A revocation committed after this stream's authentication read the credential, but before it listened: end it too.
  if (holder && (await findCredential(sb.engine, holder.appKey).catch(() => undefined))?.revoked_at) onRevoked(holder.appKey);
  void pump();
}
