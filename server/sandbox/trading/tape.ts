import "server-only";
import { createHash } from "node:crypto";
import { sessionAt, type Market, type Session } from "./sessions";

/**
 * The trade tape of one instrument: every market-data answer (snapshot statistics, bars, footprint, ticks) is an
 * aggregate of these ticks, so they agree with each other and with the price orders fill against.
 *
 * - Live ticks: one per random-walk step and per pinned price, recorded by SimMarket from the moment the market
 *   loaded. Their times never run backwards, even when the market clock does. The first is the load price's trade:
 *   at the load time when the instrument trades then, else at the end of its last session before it (a quote
 *   loaded on a Sunday last traded on Friday, as the real one did).
 * - History (before that first trade): a deterministic function of (seed, instrument, time), anchored so that it
 *   ends at the load price. Each minute of a session (sessions.ts; options: CORE only) holds 4 ticks in CORE (at :00,
 *   :15, :30, :45) and 1 in the other sessions (at :30), of 1 to 800 shares in CORE and 1 to 200 in the others
 *   (options 1 to 20 contracts), times the instrument's volume scale (`volumeScaleFor`). The price is a multi-scale
 *   value noise on the log price (60 s … 1 year), so any tick can be computed on its own, without walking from the
 *   anchor; the side is BUY when the tick printed above the noise's mid and SELL below. History starts HISTORY_YEARS
 *   before the load.
 */
export interface Tick {
  t: number;
  price: number;
  volume: number;
  side: "BUY" | "SELL";
  session: Session;
}

export const HISTORY_YEARS = 5;
const HISTORY_MS = HISTORY_YEARS * 365 * 86_400_000;
/** Live ticks kept per instrument (older ones drop off the tape: ~2.8 h of the 1 s market timer; ~1 MB an instrument). */
const LIVE_LIMIT = 10_000;

// Noise scales (ms) and log-amplitudes: roughly a random walk of 1.5 % a day.
const FINE = [
  [60_000, 0.0004],
  [900_000, 0.0015],
] as const;
const COARSE = [
  [21_600_000, 0.004],
  [432_000_000, 0.02],
  [5_184_000_000, 0.06],
  [31_536_000_000, 0.15],
] as const;

const mix = (a: number, b: number): number => {
  let h = Math.imul(a ^ b, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};
/** A uniform [0, 1) from (seed, salt, index); index may exceed 32 bits. */
export const unit = (seed: number, salt: number, index: number) =>
  mix(mix(seed ^ salt, index >>> 0), Math.floor(index / 4294967296)) / 4294967296;

export const seedOf = (text: string) => createHash("sha256").update(text).digest().readUInt32LE(0);

/**
 * One scale of the value noise (smoothstep between lattice values a `span` apart), remembering the lattice values of
 * the last cell it was asked about: the history is read in time order, so a minute's four ticks, or the days of a
 * six-hour scale, hash their lattice once.
 */
class NoiseScale {
  private i = Number.NaN;
  private a = 0;
  private b = 0;
  constructor(
    private readonly seed: number,
    private readonly salt: number,
    private readonly span: number,
    readonly amplitude: number,
  ) {}

  at(t: number): number {
    const x = t / this.span;
    const i = Math.floor(x);
    if (i !== this.i) {
      this.a = i === this.i + 1 ? this.b : unit(this.seed, this.salt, i) * 2 - 1;
      this.b = unit(this.seed, this.salt, i + 1) * 2 - 1;
      this.i = i;
    }
    const f = x - i;
    return this.a + (this.b - this.a) * f * f * (3 - 2 * f);
  }
}

const tickSizeOf = (p: number) => (p < 1 ? 0.001 : 0.01);
export const roundPrice = (p: number) => {
  const t = tickSizeOf(p);
  return Math.max(Math.round(p / t) * t, t);
};
export const fmt = (p: number) => p.toFixed(p < 1 ? 3 : 2);

/**
 * Session of each 30-minute block (every session edge of US/HK/CN is on a local :00 or :30; offsets are whole hours),
 * a map a market keyed by the block's number: a year of daily bars looks up every minute of it.
 */
const blocks = new Map<Market, Map<number, Session>>();
function sessionOfBlock(market: Market, block: number): Session {
  let known = blocks.get(market);
  if (!known) blocks.set(market, (known = new Map()));
  let s = known.get(block);
  if (s === undefined) {
    if (known.size > 1_000_000) known.clear();
    s = sessionAt(market, new Date(block * 1_800_000));
    known.set(block, s);
  }
  return s;
}

export const SESSION_NAMES: Record<Session, string> = { PRE: "PRE", CORE: "RTH", AFTER: "ATH", NIGHT: "OVN", CLOSED: "CLOSED" };
/** A set of sessions, as the `trading_sessions` parameter names them (RTH, PRE, ATH, OVN); undefined = all. */
export type SessionFilter = ReadonlySet<Session> | undefined;

/** The most shares (contracts) one history trade of a session holds before the volume scale, and trades a minute. */
const maxSize = (option: boolean, session: Session) => (option ? 20 : session === "CORE" ? 800 : 200);
const tradesPerMinute = (session: Session) => (session === "CORE" ? 4 : 1);
/** A US regular session's volume at scale 1: 390 minutes of trades of (1 + maxSize) / 2 shares on average. */
const SCALE_ONE_SESSION = (390 * tradesPerMinute("CORE") * (1 + maxSize(false, "CORE"))) / 2;
/** The volume scale of a stock that trades `regularSessionVolume` shares on a full US regular session. */
export const volumeScaleFor = (regularSessionVolume: number) => regularSessionVolume / SCALE_ONE_SESSION;

export interface Agg {
  open: number;
  close: number;
  high: number;
  low: number;
  volume: number;
  turnover: number;
  lastT: number;
  session: Session;
  buy?: Map<string, number>;
  sell?: Map<string, number>;
}

export class Tape {
  readonly live: Tick[] = [];
  private readonly cache = new Map<string, Agg | null>();
  private readonly seed: number;
  private readonly coarseNoise: NoiseScale[];
  private readonly fineNoise: NoiseScale[];
  private readonly fAnchor: number;
  /** When the load price traded: the load time, or the end of the last session before it (`lastTradingMoment`). */
  private readonly anchoredAt: number;
  readonly start: number;
  private rand: () => number;

  constructor(
    seedText: string,
    readonly market: Market,
    readonly option: boolean,
    readonly anchor: number,
    readonly loadedAt: number,
    /** What every volume of the tape is multiplied by: a stock's usual activity (`volumeScaleFor`), 1 for options. */
    readonly volumeScale = 1,
  ) {
    this.seed = seedOf(seedText);
    this.coarseNoise = COARSE.map(([span, amplitude], k) => new NoiseScale(this.seed, k + 10, span, amplitude));
    this.fineNoise = FINE.map(([span, amplitude], k) => new NoiseScale(this.seed, k + 20, span, amplitude));
    this.start = loadedAt - HISTORY_MS;
    this.anchoredAt = this.lastTradingMoment(loadedAt);
    this.fAnchor = this.coarse(this.anchoredAt) + this.fine(this.anchoredAt);
    let a = mix(this.seed, 0x7a9e);
    this.rand = () => ((a = mix(a, 0x51ed)) >>> 0) / 4294967296;
    this.record(this.anchoredAt, anchor, this.volumeDraw());
  }

  /**
   * `at` when the instrument trades then; else the last millisecond of its last trading minute before `at` (half-hour
   * blocks first, every session edge being on one), or `at` when it has not traded within the history.
   */
  private lastTradingMoment(at: number): number {
    if (this.sessionOf(at) !== "CLOSED") return at;
    let block = Math.floor(at / 1_800_000) * 1_800_000;
    while (block > this.start && this.sessionOf(block) === "CLOSED") block -= 1_800_000;
    if (block <= this.start) return at;
    return block + 1_800_000 - 1;
  }

  private amp = () => (this.option ? 4 : 1);
  private coarse(t: number) {
    let f = 0;
    for (const n of this.coarseNoise) f += n.amplitude * n.at(t);
    return f * this.amp();
  }
  private fine(t: number) {
    let f = 0;
    for (const n of this.fineNoise) f += n.amplitude * n.at(t);
    return f * this.amp();
  }

  private scaled = (volume: number) => Math.max(1, Math.round(volume * this.volumeScale));

  /** A volume for a live tick the random walk did not size (a pinned price). */
  volumeDraw(): number {
    return this.scaled(1 + Math.floor(this.rand() * (this.option ? 20 : 500)));
  }

  /**
   * The volume of one step of the random walk at `at` (a second of the market timer), from a uniform draw `r` in
   * [0, 1): on average a second's share of the history's volume in that session, so live trading adds to a day's
   * volume at the rate its history did.
   */
  stepVolume(r: number, at: number): number {
    const session = this.sessionOf(at);
    // A history trade holds (1 + maxSize) / 2 on average: twice a second's share of a minute's trades, times r.
    return Math.floor((r * tradesPerMinute(session) * (1 + maxSize(this.option, session)) * this.volumeScale) / 60);
  }

  /** Records a live trade; times never run backwards. */
  record(at: number, price: number, volume: number) {
    const prev = this.live[this.live.length - 1];
    const t = Math.max(at, prev?.t ?? at);
    const side = !prev || price > prev.price ? "BUY" : price < prev.price ? "SELL" : prev.side;
    this.live.push({
      t,
      price,
      volume: Math.max(1, Math.floor(volume)),
      side,
      session: sessionOfBlock(this.market, Math.floor(t / 1_800_000)),
    });
    if (this.live.length > LIVE_LIMIT + 1_000) this.live.splice(0, this.live.length - LIVE_LIMIT);
  }

  lastTime(): number {
    return this.live[this.live.length - 1].t;
  }

  /** The session a trade of this instrument at t belongs to: an option trades in the regular session only. */
  sessionOf(t: number): Session {
    const s = sessionOfBlock(this.market, Math.floor(t / 1_800_000));
    return this.option && s !== "CORE" ? "CLOSED" : s;
  }

  /**
   * History ticks of the minute starting at m (before the load price's trade only), each given to `each` with its
   * time, price, volume and jitter (the side: BUY above the noise's mid).
   */
  private eachMinuteTick(
    m: number,
    filter: SessionFilter,
    each: (t: number, price: number, volume: number, jitter: number, session: Session) => void,
  ): void {
    const session = this.sessionOf(m);
    if (session === "CLOSED" || (filter && !filter.has(session))) return;
    const base = this.coarse(m) - this.fAnchor;
    const trades = tradesPerMinute(session);
    const amp = this.amp();
    const most = maxSize(this.option, session);
    for (let n = 0; n < trades; n += 1) {
      const t = m + (trades === 4 ? n * 15_000 : 30_000);
      if (t >= this.anchoredAt) break;
      const idx = t / 1000;
      const jitter = (unit(this.seed, 31, idx) * 2 - 1) * 0.0003 * amp;
      const price = roundPrice(this.anchor * Math.exp(base + this.fine(t) + jitter));
      each(t, price, this.scaled(1 + Math.floor(unit(this.seed, 32, idx) * most)), jitter, session);
    }
  }

  /** History ticks of the minute starting at m (before the load price's trade only). */
  private minuteTicks(m: number, filter: SessionFilter, out: Tick[]) {
    this.eachMinuteTick(m, filter, (t, price, volume, jitter, session) =>
      out.push({ t, price, volume, side: jitter >= 0 ? "BUY" : "SELL", session }),
    );
  }

  /**
   * What `fold(this.ticks(from, to, filter))` answers for a range before the load, without keeping a tick: a year of
   * daily bars (the 52-week screener) folds some 650,000 history ticks an instrument. A half hour without trading
   * (closed, or a session the filter leaves out) is passed over at once.
   */
  private foldRange(from: number, to: number, filter: SessionFilter): Agg | undefined {
    let a: Agg | undefined;
    const add = (t: number, price: number, volume: number, session: Session) => {
      if (!a) a = { open: price, close: price, high: price, low: price, volume: 0, turnover: 0, lastT: t, session };
      a.close = price;
      if (price > a.high) a.high = price;
      if (price < a.low) a.low = price;
      a.volume += volume;
      a.turnover += price * volume;
      a.lastT = t;
      a.session = session;
    };
    const histEnd = Math.min(to, this.loadedAt);
    const history = (t: number, price: number, volume: number, _jitter: number, session: Session) => {
      if (t >= from && t < to) add(t, price, volume, session);
    };
    for (let m = Math.floor(Math.max(from, this.start) / 60_000) * 60_000; m < histEnd;) {
      const session = this.sessionOf(m);
      if (session === "CLOSED" || (filter && !filter.has(session))) {
        m = (Math.floor(m / 1_800_000) + 1) * 1_800_000;
        continue;
      }
      this.eachMinuteTick(m, filter, history);
      m += 60_000;
    }
    for (const k of this.liveRange(from, to)) if (!filter || filter.has(k.session)) add(k.t, k.price, k.volume, k.session);
    return a;
  }

  /** Every tick in [from, to), oldest first. */
  ticks(from: number, to: number, filter: SessionFilter): Tick[] {
    const out: Tick[] = [];
    const histEnd = Math.min(to, this.loadedAt);
    for (let m = Math.floor(Math.max(from, this.start) / 60_000) * 60_000; m < histEnd; m += 60_000) {
      const before = out.length;
      this.minuteTicks(m, filter, out);
      if (m < from) {
        const keep = out.slice(before).filter((k) => k.t >= from && k.t < to);
        out.length = before;
        out.push(...keep);
      }
    }
    while (out.length && out[out.length - 1].t >= to) out.pop();
    for (const k of this.liveRange(from, to)) if (!filter || filter.has(k.session)) out.push(k);
    return out;
  }

  private liveRange(from: number, to: number): Tick[] {
    let lo = 0;
    let hi = this.live.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.live[mid].t < from) lo = mid + 1;
      else hi = mid;
    }
    const out: Tick[] = [];
    for (let i = lo; i < this.live.length && this.live[i].t < to; i += 1) out.push(this.live[i]);
    return out;
  }

  /** The last n ticks at or before `to`, newest first. */
  recent(n: number, to: number, filter: SessionFilter): Tick[] {
    const out: Tick[] = [];
    for (let i = this.live.length - 1; i >= 0 && out.length < n; i -= 1) {
      const k = this.live[i];
      if (k.t <= to && (!filter || filter.has(k.session))) out.push(k);
    }
    for (let m = Math.floor(Math.min(to, this.loadedAt) / 60_000) * 60_000; out.length < n && m >= this.start; m -= 60_000) {
      const minute: Tick[] = [];
      this.minuteTicks(m, filter, minute);
      for (let i = minute.length - 1; i >= 0 && out.length < n; i -= 1) if (minute[i].t <= to) out.push(minute[i]);
    }
    return out;
  }

  /** Price of the last trade at or before t (history or live). */
  priceAt(t: number): number {
    const live = this.liveRange(-Infinity, t + 1);
    if (live.length) return live[live.length - 1].price;
    return this.recent(1, t, undefined)[0]?.price ?? this.anchor;
  }

  /** OHLCV (and, with detail, volume at price by side) of the ticks in [from, to); undefined when none traded. */
  aggregate(from: number, to: number, filter: SessionFilter, detail = false): Agg | undefined {
    if (detail) return fold(this.ticks(from, to, filter), true);
    // Longer than a day: built from days, so bars of W, M and Y reuse the days' cached history.
    if (to - from > 86_400_000) {
      const parts: (Agg | undefined)[] = [];
      for (let d = Math.floor(from / 86_400_000) * 86_400_000; d < to; d += 86_400_000) {
        parts.push(this.aggregate(Math.max(d, from), Math.min(d + 86_400_000, to), filter));
      }
      return merge(parts);
    }
    const split = Math.min(to, this.loadedAt);
    return merge([
      from < split ? this.history(from, split, filter) : undefined,
      to > this.loadedAt ? fold(this.ticks(Math.max(from, this.loadedAt), to, filter), false) : undefined,
    ]);
  }

  /** How many ranges of history this tape has computed (each once while kept). */
  historyComputed = 0;

  /** A range before the load never changes: its aggregate is computed once (today's history part, past buckets). */
  private history(from: number, to: number, filter: SessionFilter): Agg | undefined {
    const key = `${from}:${to}:${filter ? [...filter].sort().join(",") : "*"}`;
    let v = this.cache.get(key);
    if (v === undefined) {
      if (this.cache.size >= 50_000) this.cache.clear();
      this.historyComputed += 1;
      v = this.foldRange(from, to, filter) ?? null;
      this.cache.set(key, v);
    }
    return v ?? undefined;
  }
}

function fold(ticks: Tick[], detail: boolean): Agg | undefined {
  if (!ticks.length) return undefined;
  const a: Agg = {
    open: ticks[0].price,
    close: ticks[ticks.length - 1].price,
    high: -Infinity,
    low: Infinity,
    volume: 0,
    turnover: 0,
    lastT: ticks[ticks.length - 1].t,
    session: ticks[ticks.length - 1].session,
    ...(detail ? { buy: new Map<string, number>(), sell: new Map<string, number>() } : {}),
  };
  for (const k of ticks) {
    a.high = Math.max(a.high, k.price);
    a.low = Math.min(a.low, k.price);
    a.volume += k.volume;
    a.turnover += k.price * k.volume;
    if (detail) {
      const side = k.side === "BUY" ? a.buy! : a.sell!;
      const p = fmt(k.price);
      side.set(p, (side.get(p) ?? 0) + k.volume);
    }
  }
  return a;
}

function merge(all: (Agg | undefined)[]): Agg | undefined {
  const parts = all.filter((p): p is Agg => p !== undefined);
  if (!parts.length) return undefined;
  const last = parts[parts.length - 1];
  return {
    open: parts[0].open,
    close: last.close,
    high: Math.max(...parts.map((p) => p.high)),
    low: Math.min(...parts.map((p) => p.low)),
    volume: parts.reduce((s, p) => s + p.volume, 0),
    turnover: parts.reduce((s, p) => s + p.turnover, 0),
    lastT: last.lastT,
    session: last.session,
  };
}

/** Bar buckets: fixed spans (UTC-aligned; W from Monday) and calendar months / years (UTC). */
const FIXED: Record<string, number> = {
  S5: 5_000,
  S15: 15_000,
  M1: 60_000,
  M5: 300_000,
  M15: 900_000,
  M30: 1_800_000,
  M60: 3_600_000,
  M120: 7_200_000,
  M240: 14_400_000,
  D: 86_400_000,
};
export const TIMESPANS = [...Object.keys(FIXED), "W", "M", "Y"];
export const INTRADAY = Object.keys(FIXED).filter((k) => k !== "D");

/** The bucket [from, to) of this timespan that contains t. */
export function bucketOf(timespan: string, t: number): [number, number] {
  const fixed = FIXED[timespan];
  if (fixed) {
    const from = Math.floor(t / fixed) * fixed;
    return [from, from + fixed];
  }
  if (timespan === "W") {
    const day = Math.floor(t / 86_400_000);
    const from = (day - ((day + 3) % 7)) * 86_400_000;
    return [from, from + 7 * 86_400_000];
  }
  const d = new Date(t);
  if (timespan === "M") return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
  return [Date.UTC(d.getUTCFullYear(), 0, 1), Date.UTC(d.getUTCFullYear() + 1, 0, 1)];
}

/** Up to `count` non-empty bars of the timespan ending with the bucket of `asOf`, newest first. */
export function barsOf(tape: Tape, timespan: string, count: number, asOf: number, filter: SessionFilter, detail = false) {
  const out: { from: number; agg: Agg }[] = [];
  let [from, to] = bucketOf(timespan, asOf);
  while (out.length < count && to > tape.start) {
    const agg = tape.aggregate(Math.max(from, tape.start), Math.min(to, asOf + 1), filter, detail);
    if (agg) out.push({ from, agg });
    [from, to] = bucketOf(timespan, from - 1);
  }
  return out;
}
