import "server-only";
import { randomBytes } from "node:crypto";
import type { Engine } from "@/server/db/engine";
import { EVENT, isEventMessage } from "@/server/wire/events/proto";
import { openSubscription, type SubscribeOptions, type Subscription } from "@/server/wire/events/subscribe";
import { UPSTREAM_EVENT_TYPES } from "@/server/books/changes";
import { notifyChange } from "@/server/notices/channel";
import { ingest, type Incoming } from "@/server/books/ingest";
import { fromStream } from "./ingest";
import { onSubscribed, upstreamResumePoint } from "./gaps";
import { backoffMs, sleep } from "@/server/timing";
import { tryLead, type Leadership } from "./leader";
import { selectResumePoint, updateStreamRow } from "./queries/stream";

/**
 * The upstream event consumer: stands by until it holds the leader's lease (leader.ts), then subscribes to all seven
 * categories from the stored resume point, stores and projects what arrives in batches (ingest.ts), and reconnects with
 * exponential backoff and full jitter when the stream fails, ends, or stays silent (no event and no ping) for
 * `silenceMs`. Events buffered but not yet stored when the stream ends are dropped: the resume point only moves
 * with stored events, so the upstream sends them again. With no resume point of its own it keeps the one the
 * upstream answers on subscribe, and a gap it cannot resume over is backfilled (gaps.ts).
 */
export interface ConsumerOptions {
  engine: Engine;
  stream: Omit<SubscribeOptions, "payload">;
  /** Shown on the stream-health page as the active consumer. */
  instance?: string;
  silenceMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How often a standby asks for the lease (default 1 s: a takeover comes within the lease's 6 s and this). */
  leaderPollMs?: number;
  batchMax?: number;
  /** Called once leadership is won, with a signal that aborts when it is lost (background jobs hang off it). */
  onLead?: (signal: AbortSignal) => void;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

export interface ConsumerHandle {
  readonly instance: string;
  isLeader(): boolean;
  /** Ends the current stream (it reconnects from the stored resume point). */
  reconnect(reason: string): void;
  stop(): Promise<void>;
}

/** Updates the stream's row (`countReconnect` adds one to the reconnect count) and tells open pages. */
async function setStream(engine: Engine, fields: Record<string, unknown>, notify = true, countReconnect = false): Promise<void> {
  await updateStreamRow(engine, fields, countReconnect);
  if (notify) await notifyChange(engine, { topics: ["stream"], accounts: [] });
}

export function startConsumer(o: ConsumerOptions): ConsumerHandle {
  const instance = o.instance ?? `consumer-${process.pid}-${randomBytes(3).toString("hex")}`;
  const log = o.log ?? (() => undefined);
  const silenceMs = o.silenceMs ?? 30_000;
  const baseMs = o.backoffBaseMs ?? 500;
  const maxMs = o.backoffMaxMs ?? 30_000;
  const batchMax = o.batchMax ?? 1000;
  const stopping = new AbortController();
  let leadership: Leadership | undefined;
  let current: { sub: Subscription; end(reason: string): void } | undefined;

  /** One subscription, until it ends; resolves with why. */
  async function runStream(lost: AbortSignal): Promise<{ reason: string; gotData: boolean }> {
    const resumeFrom = await selectResumePoint(o.engine);
    const sub = openSubscription({
      ...o.stream,
      payload: { event_types: [...UPSTREAM_EVENT_TYPES], ...(resumeFrom ? { last_event_id: resumeFrom } : {}) },
    });
    const buffer: { item: Incoming; id?: string; at?: string }[] = [];
    let flushing: Promise<void> | undefined;
    let lastMessage = Date.now();
    let gotData = false;
    let ended = false;
    let resolveEnd!: (reason: string) => void;
    const endPromise = new Promise<string>((r) => (resolveEnd = r));
    const end = (reason: string) => {
      if (ended) return;
      ended = true;
      sub.close();
      resolveEnd(reason);
    };
    current = { sub, end };

    const flush = async () => {
      while (buffer.length && !ended) {
        const chunk = buffer.splice(0, batchMax);
        const last = [...chunk].reverse().find((c) => c.id);
        try {
          await ingest(
            o.engine,
            chunk.map((c) => c.item),
            last ? { lastEventId: last.id, lastEventAt: last.at } : undefined,
            leadership?.fence,
          );
        } catch (error) {
          log("error", "storing events failed; reconnecting from the stored resume point", { err: String(error) });
          end("store failed");
        }
        if (buffer.length < batchMax * 5) sub.call.resume();
      }
      flushing = undefined;
    };

    sub.call.on("data", (m: { eventType: number; payload: string }) => {
      lastMessage = Date.now();
      if (m.eventType === EVENT.SubscribeSuccess) {
        void setStream(o.engine, { connected: true, connected_at: new Date(), last_error: null, leader: instance }).catch(() => undefined);
        const upstream = upstreamResumePoint(m.payload);
        log("info", "event stream connected", { resumeFrom, upstream });
        void onSubscribed(o.engine, resumeFrom, upstream).then(
          (gapFrom) => gapFrom && log("warn", "the stream cannot resume from the books' own point: backfilling the gap", { gapFrom }),
          (error) => log("error", "storing the upstream's resume point failed", { err: String(error) }),
        );
      } else if (m.eventType === EVENT.Ping) {
        void setStream(o.engine, { last_ping_at: new Date() }, false).catch(() => undefined);
      } else if (isEventMessage(m.eventType)) {
        gotData = true;
        const item = fromStream(m.payload);
        buffer.push({
          item,
          id: item.source === "stream" && item.outcome !== "malformed" ? item.event_id : undefined,
          at: item.occurred_at,
        });
        if (buffer.length > batchMax * 5) sub.call.pause();
        // After the I/O already received is read (setImmediate), so a burst is stored in batches, not one by one.
        flushing ??= new Promise<void>((r) => setImmediate(r)).then(flush);
      } else if (m.eventType === EVENT.AuthError || m.eventType === EVENT.NumOfConnExceed || m.eventType === EVENT.SubscribeExpired) {
        void setStream(o.engine, { last_error: `upstream refused the subscription: ${m.payload}` }).catch(() => undefined);
      }
    });
    sub.call.on("error", (e: Error) => end(`stream error: ${e.message}`));
    sub.call.on("end", () => end("stream ended"));
    const watchdog = setInterval(
      () => {
        if (Date.now() - lastMessage > silenceMs) end(`silent for ${Math.round(silenceMs / 1000)} s`);
      },
      Math.min(1000, silenceMs / 4),
    );
    const onLost = () => end("leadership lost");
    lost.addEventListener("abort", onLost, { once: true });
    // Stopped or deposed while this stream started (its resume point read): the abort came before this listener.
    if (lost.aborted) onLost();
    const reason = await endPromise;
    clearInterval(watchdog);
    lost.removeEventListener("abort", onLost);
    await flushing;
    buffer.length = 0;
    current = undefined;
    return { reason, gotData };
  }

  async function lead(l: Leadership) {
    const lostLock = new AbortController();
    void l.lost.then(() => lostLock.abort());
    const lost = AbortSignal.any([lostLock.signal, stopping.signal]);
    // Not connected until its own subscription is: a leader that died left the row saying connected (down since now
    // when it did; a row already down keeps its time).
    const now = new Date();
    await setStream(o.engine, { leader: instance, heartbeat_at: now, connected: false, disconnected_at: now });
    o.onLead?.(lost);
    let attempt = 0;
    try {
      while (!lost.aborted) {
        const { reason, gotData } = await runStream(lost).catch((e) => ({ reason: String(e), gotData: false }));
        // A leader that woke past its lease (frozen, cut off) writes nothing more as the leader: it steps down.
        if (lost.aborted || !l.holds()) break;
        await setStream(o.engine, { connected: false, disconnected_at: new Date(), last_error: reason }, true, true).catch(() => undefined);
        attempt = gotData ? 1 : attempt + 1;
        const delay = backoffMs(attempt + 1, { baseMs, maxMs, jitter: "full" });
        log("warn", "event stream down; reconnecting", { reason, delayMs: Math.round(delay) });
        await sleep(delay, lost);
      }
    } finally {
      // A leader whose lease was taken over leaves the row to the new one, which may be connected by now.
      if (l.holds()) await setStream(o.engine, { connected: false, disconnected_at: new Date() }).catch(() => undefined);
    }
  }

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      // The heartbeat (what the health page's "no consumer" reads) goes with each renewal of the lease, never without.
      const renewed = () => setStream(o.engine, { heartbeat_at: new Date(), leader: instance }, false);
      leadership = await tryLead(o.engine, instance, { renewed }).catch(() => undefined);
      if (!leadership) {
        await sleep(o.leaderPollMs ?? 1_000, stopping.signal);
        continue;
      }
      log("info", "event consumer is the leader", { instance });
      await lead(leadership).catch((e) => log("error", "event consumer failed", { err: String(e) }));
      if (!leadership.holds()) log("warn", "event consumer lost its lease; standing by", { instance });
      await leadership.release();
      leadership = undefined;
    }
  })();

  return {
    instance,
    isLeader: () => !!leadership,
    reconnect: (reason) => current?.end(reason),
    stop: async () => {
      stopping.abort();
      current?.end("stopped");
      await loop;
    },
  };
}
