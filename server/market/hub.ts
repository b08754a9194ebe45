import "server-only";
import type { LiveMarketData, LiveMarketKind, MarketCode } from "@/lib/market";
import { marketTopic } from "@/lib/market";
import { logger } from "@/server/log";
import type { MarketReads } from "./reads";

/**
 * The upstream budget for live market data: one shared poller per (kind, market, symbol) that someone views, in
 * this process. The first subscriber starts it, every subscriber gets each answer, the last one leaving stops it.
 * `read()` answers from the latest value while it is fresh and otherwise makes one call whoever asks (a page's first
 * render, the order ticket), so ten viewers of a symbol cost the upstream what one costs.
 *
 * The pace adapts to the budget: each kind has its base interval (a snapshot every second), and when the pollers
 * of this process together would exceed `perSecond` calls a second, every interval stretches by the same factor.
 * A failing read backs off (doubling, up to 30 s) and its viewers are told the error.
 *
 * Several app instances: each instance polls for the viewers connected to it (their live channel is a stream to
 * that instance). With a `share` (`share.ts`: the change-notice channel, PostgreSQL NOTIFY), each answer is offered
 * to the other instances: one that hears a newer answer for a topic it polls takes it as its own and puts its next
 * poll off by one and a half intervals, so while one instance polls a symbol the others mostly listen. Without it
 * (or when an answer is too large to share), one symbol open on two instances costs two pollers.
 */
export type MarketEvent<K extends LiveMarketKind = LiveMarketKind> =
  { topic: string; kind: K; data: LiveMarketData[K]; at: number } | { topic: string; kind: K; error: string; at: number };
type Listener = (e: MarketEvent) => void;

export const BASE_INTERVAL_MS: Record<LiveMarketKind, number> = {
  snapshot: 1_000,
  depth: 1_000,
  tick: 2_000,
  footprint: 5_000,
  noii: 5_000,
};
const MAX_BACKOFF_MS = 30_000;

interface Entry {
  kind: LiveMarketKind;
  market: MarketCode;
  symbol: string;
  listeners: Set<Listener>;
  last?: { at: number; data: unknown };
  inflight?: Promise<unknown>;
  timer?: ReturnType<typeof setTimeout>;
  failures: number;
}

/** How answers travel between the app instances' hubs (`share.ts`). */
export interface HubShare {
  publish(answer: { topic: string; at: number; data: unknown }): void;
  listen(receive: (answer: { topic: string; at: number; data: unknown }) => void): void;
}

export interface HubOptions {
  reads: MarketReads;
  share?: HubShare;
  /** Upstream calls a second all pollers of this process may make together (half the documented 600 / min). */
  perSecond?: number;
  /** Multiplies every base interval (tests run the pollers fast). */
  speed?: number;
}

export class MarketHub {
  private readonly entries = new Map<string, Entry>();
  private readonly perSecond: number;
  private readonly speed: number;

  constructor(private readonly options: HubOptions) {
    this.perSecond = options.perSecond ?? 5;
    this.speed = options.speed ?? 1;
    options.share?.listen((answer) => this.receive(answer));
  }

  /** Another instance's answer: taken when newer than ours, and our next poll put off while that instance polls. */
  private receive(answer: { topic: string; at: number; data: unknown }) {
    const e = this.entries.get(answer.topic);
    if (!e || (e.last && e.last.at >= answer.at)) return;
    e.last = { at: answer.at, data: answer.data };
    this.emit(e, { topic: answer.topic, kind: e.kind, data: answer.data as never, at: answer.at });
    if (e.listeners.size > 0 && !e.inflight) this.schedule(e, this.interval(e) * 1.5);
  }

  /** Starts (or joins) the poller of a topic; the listener gets the latest value at once when there is one. */
  subscribe(kind: LiveMarketKind, market: MarketCode, symbol: string, listener: Listener): () => void {
    const e = this.entry(kind, market, symbol);
    e.listeners.add(listener);
    if (e.last) listener({ topic: marketTopic(kind, market, symbol), kind, data: e.last.data as never, at: e.last.at });
    if (e.listeners.size === 1) this.schedule(e, e.last ? Math.max(0, this.interval(e) - (Date.now() - e.last.at)) : 0);
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      e.listeners.delete(listener);
      if (e.listeners.size === 0) {
        clearTimeout(e.timer);
        e.timer = undefined;
      }
    };
  }

  /** The latest value while it is fresh (younger than one interval), else one shared call. */
  read<K extends LiveMarketKind>(kind: K, market: MarketCode, symbol: string): Promise<LiveMarketData[K]> {
    const e = this.entry(kind, market, symbol);
    if (e.last && Date.now() - e.last.at < this.interval(e)) return Promise.resolve(e.last.data as LiveMarketData[K]);
    return this.fetch(e) as Promise<LiveMarketData[K]>;
  }

  /** Topics with a running poller (those someone views). */
  polling(): string[] {
    return [...this.entries.values()].filter((e) => e.listeners.size > 0).map((e) => marketTopic(e.kind, e.market, e.symbol));
  }

  private entry(kind: LiveMarketKind, market: MarketCode, symbol: string): Entry {
    const key = marketTopic(kind, market, symbol);
    let e = this.entries.get(key);
    if (!e) {
      this.prune();
      e = { kind, market, symbol, listeners: new Set(), failures: 0 };
      this.entries.set(key, e);
    }
    return e;
  }

  /** Forgets values nobody has viewed for a minute, so the map holds what is in view and a little history. */
  private prune() {
    const old = Date.now() - 60_000;
    for (const [key, e] of this.entries) {
      if (e.listeners.size === 0 && !e.inflight && (e.last?.at ?? 0) < old) this.entries.delete(key);
    }
  }

  private interval(e: Entry): number {
    let rate = 0;
    for (const x of this.entries.values()) if (x.listeners.size > 0) rate += 1_000 / (BASE_INTERVAL_MS[x.kind] * this.speed);
    const stretch = Math.max(1, rate / this.perSecond);
    return BASE_INTERVAL_MS[e.kind] * this.speed * stretch;
  }

  private fetch(e: Entry): Promise<unknown> {
    if (e.inflight) return e.inflight;
    const read = this.options.reads[e.kind] as (market: MarketCode, symbol: string) => Promise<unknown>;
    const inflight = read(e.market, e.symbol)
      .then((data) => {
        const at = Date.now();
        e.last = { at, data };
        e.failures = 0;
        const topic = marketTopic(e.kind, e.market, e.symbol);
        this.emit(e, { topic, kind: e.kind, data: data as never, at });
        this.options.share?.publish({ topic, at, data });
        return data;
      })
      .catch((err: unknown) => {
        e.failures += 1;
        const message = err instanceof Error ? err.message : String(err);
        this.emit(e, { topic: marketTopic(e.kind, e.market, e.symbol), kind: e.kind, error: message, at: Date.now() });
        throw err;
      })
      .finally(() => (e.inflight = undefined));
    e.inflight = inflight;
    return inflight;
  }

  private emit(e: Entry, event: MarketEvent) {
    for (const l of [...e.listeners]) {
      // Each on its own: one that throws must not keep the answer from the subscribers after it.
      try {
        l(event);
      } catch (err) {
        logger.error({ err, topic: event.topic }, "a market subscriber failed");
      }
    }
  }

  private schedule(e: Entry, delay: number) {
    clearTimeout(e.timer);
    e.timer = setTimeout(() => {
      e.timer = undefined;
      if (e.listeners.size === 0) return;
      void this.fetch(e)
        .catch(() => undefined)
        .then(() => {
          if (e.listeners.size === 0 || e.timer) return;
          const backoff = e.failures ? Math.min(MAX_BACKOFF_MS, this.interval(e) * 2 ** e.failures) : this.interval(e);
          this.schedule(e, backoff);
        });
    }, delay);
    e.timer.unref?.();
  }
}
