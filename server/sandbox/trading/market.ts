import "server-only";
import { createHash } from "node:crypto";
import type { Queryable } from "@/server/db/engine";
import { Decimal } from "../money";
import { impliedVol, optionPrice, yearsToExpiry } from "./greeks";
import type { Market } from "./sessions";
import { regularSessionVolume } from "./instrument-facts";
import { Tape, volumeScaleFor } from "./tape";

/**
 * The simulated market: one quote per instrument (stocks by `MARKET:SYMBOL`, options by `OPT:OCC`), moved by a
 * seeded random walk. Each instrument has its own generator seeded from (seed, key), so the n-th step of a symbol is
 * the same on every run whatever else happened. A control call can pin a price. bid/ask straddle the last price by
 * half a spread of 5 bp (at least one tick). `liquidity` is what one matching pass may fill per order, so a test can
 * force partial fills. Every step and every pinned price prints a trade on the instrument's tape (tape.ts).
 */
export interface Quote {
  key: string;
  market: string;
  symbol: string;
  instrumentType: "EQUITY" | "OPTION";
  last: Decimal;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  volume: Decimal;
  liquidity: Decimal;
  /** board lot (HK, CN); 1 elsewhere */
  lot: Decimal;
  /** options: the contract, so random-walk steps reprice it from its underlying and its root's volatility */
  contract?: { root: string; type: "CALL" | "PUT"; strike: Decimal; expiry: string };
  /** every trade since the load, and the history before it (tape.ts): what market data aggregates */
  tape: Tape;
  instrumentId: string;
  steps: number;
  rand: () => number;
  updatedAt: Date;
}

const DEFAULT_LIQUIDITY = { EQUITY: new Decimal(100_000), OPTION: new Decimal(1_000) };

/** mulberry32: small, fast, good enough for a price walk, and reproducible. */
function generator(seed: string): () => number {
  let a = createHash("sha256").update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const tickSize = (price: Decimal) => (price.lt(1) ? new Decimal("0.001") : new Decimal("0.01"));
const roundTick = (p: Decimal) => {
  const t = tickSize(p);
  return Decimal.max(p.div(t).round().times(t), t);
};

const intrinsic = (type: "CALL" | "PUT", spot: Decimal, strike: Decimal) =>
  Decimal.max(type === "CALL" ? spot.minus(strike) : strike.minus(spot), 0);

/** A contract's price at `at`: Black–Scholes at the root's volatility, never below its intrinsic value, to the tick. */
export function contractPrice(c: { type: "CALL" | "PUT"; strike: Decimal; expiry: string }, spot: Decimal, vol: number, at: Date): Decimal {
  const years = yearsToExpiry(c.expiry, at);
  const value = optionPrice({ type: c.type, spot: spot.toNumber(), strike: c.strike.toNumber(), years }, vol);
  return roundTick(Decimal.max(new Decimal(value.toFixed(4)), intrinsic(c.type, spot, c.strike)));
}

export class SimMarket {
  private quotes = new Map<string, Quote>();
  private dirty = new Set<string>();
  /** Each option root's volatility and the generator of its walk. */
  private vols = new Map<string, { vol: number; rand: () => number }>();
  private loaded = false;
  /** Set by POST /sandbox/market/pause: the market timer then takes no steps (control calls still do). */
  paused = false;

  constructor(readonly seed: string) {}

  /** Loads last prices from the instrument master once (and again after a reset). */
  async load(db: Queryable, at: Date): Promise<void> {
    if (this.loaded) return;
    const { rows } = await db.query<{
      market: string;
      symbol: string;
      t: "EQUITY" | "OPTION";
      last_price: string;
      lot: string | null;
      root: string | null;
      type: "CALL" | "PUT" | null;
      strike: string | null;
      expiry?: string | null;
      instrument_id?: string;
    }>(
      `SELECT market, symbol, 'EQUITY' AS t, last_price, profile->>'lot_size' AS lot, NULL AS root, NULL AS type, NULL AS strike,
              NULL AS expiry, instrument_id FROM sandbox.instruments
       UNION ALL SELECT 'US', symbol, 'OPTION', last_price, '1', root_symbol, option_type, strike_price::text,
              to_char(expiration_date, 'YYYY-MM-DD'), instrument_id FROM sandbox.option_contracts`,
    );
    this.quotes.clear();
    for (const r of rows) {
      this.add(r.market, r.symbol, r.t, new Decimal(r.last_price), new Decimal(r.lot ?? 1), at, r.instrument_id ?? r.symbol);
    }
    // One volatility a root, the mean of its contracts' implied ones at their loaded prices: every contract of a
    // chain is then priced at the same volatility, so its prices follow their strikes.
    const implied = new Map<string, number[]>();
    this.vols.clear();
    for (const r of rows) {
      const q = r.root ? this.get("OPTION", "US", r.symbol) : undefined;
      const spot = r.root ? this.get("EQUITY", "US", r.root)?.last : undefined;
      if (!q || !spot) continue;
      q.contract = { root: r.root!, type: r.type!, strike: new Decimal(r.strike!), expiry: r.expiry ?? "" };
      const years = yearsToExpiry(q.contract.expiry, at);
      const vol = impliedVol(
        { type: q.contract.type, spot: spot.toNumber(), strike: q.contract.strike.toNumber(), years },
        q.last.toNumber(),
      );
      implied.set(r.root!, [...(implied.get(r.root!) ?? []), vol]);
    }
    for (const [root, vols] of implied) {
      this.vols.set(root, { vol: vols.reduce((a, b) => a + b, 0) / vols.length, rand: generator(`${this.seed}:VOL:${root}`) });
    }
    this.loaded = true;
  }

  /** After /sandbox/reset: prices reload from the instrument master and the timer runs again. */
  invalidate() {
    this.loaded = false;
    this.paused = false;
    this.dirty.clear();
  }

  private add(market: string, symbol: string, t: "EQUITY" | "OPTION", last: Decimal, lot: Decimal, at: Date, instrumentId: string) {
    const key = t === "OPTION" ? `OPT:${symbol}` : `${market}:${symbol}`;
    this.quotes.set(key, {
      key,
      instrumentId,
      tape: new Tape(
        `${this.seed}:${key}:tape`,
        market as Market,
        t === "OPTION",
        last.toNumber(),
        at.getTime(),
        t === "OPTION" ? 1 : volumeScaleFor(regularSessionVolume(this.seed, key)),
      ),
      market,
      symbol,
      instrumentType: t,
      last,
      open: last,
      high: last,
      low: last,
      volume: new Decimal(0),
      liquidity: DEFAULT_LIQUIDITY[t],
      lot,
      steps: 0,
      rand: generator(`${this.seed}:${key}`),
      updatedAt: at,
    });
  }

  get(instrumentType: string, market: string, symbol: string): Quote | undefined {
    return this.quotes.get(instrumentType === "OPTION" ? `OPT:${symbol}` : `${market}:${symbol}`);
  }

  all(): Quote[] {
    return [...this.quotes.values()];
  }

  spread(q: Quote): { bid: Decimal; ask: Decimal } {
    const half = Decimal.max(q.last.times("0.00025"), tickSize(q.last)).toDecimalPlaces(q.last.lt(1) ? 3 : 2, Decimal.ROUND_UP);
    return { bid: Decimal.max(q.last.minus(half), tickSize(q.last)), ask: q.last.plus(half) };
  }

  set(q: Quote, price: Decimal, at: Date, liquidity?: Decimal, volume = q.tape.volumeDraw()) {
    q.tape.record(at.getTime(), price.toNumber(), volume);
    q.last = price;
    q.high = Decimal.max(q.high, price);
    q.low = Decimal.min(q.low, price);
    q.updatedAt = at;
    if (liquidity) q.liquidity = liquidity;
    this.dirty.add(q.key);
  }

  /**
   * One random-walk step: stocks move ±0.2 % (standard deviation), rounded to the tick; each root's volatility
   * moves ±2 %, and each option is then priced from its underlying's last price, its strike, the time to its expiry
   * and its root's volatility (`optionPrice`, at least its intrinsic value): intrinsic value plus time value, a call
   * cheaper the higher its strike, a put dearer. (Pinned prices stay pinned until the next step.)
   * Nothing trades while its market is closed, as on the real market: over a weekend, a holiday or a night a quote
   * stays at its last trade. A stock trades in its market's sessions, an option in the regular one only: the tape's
   * own rule, which its history keeps too.
   */
  step(at: Date, steps = 1) {
    const open = [...this.quotes.values()].filter((q) => q.tape.sessionOf(at.getTime()) !== "CLOSED");
    const volumes = new Map<Quote, number>();
    for (let s = 0; s < steps && open.length; s += 1) {
      for (const q of open) {
        // Irwin–Hall approximation of a normal draw: deterministic and cheap.
        const z = q.rand() + q.rand() + q.rand() + q.rand() - 2;
        q.steps += 1;
        const volume = q.tape.stepVolume(q.rand(), at.getTime());
        q.volume = q.volume.plus(volume);
        if (q.instrumentType === "EQUITY") this.set(q, roundTick(q.last.times(1 + 0.002 * z * 1.732)), at, undefined, volume);
        else if (q.contract) volumes.set(q, volume);
      }
      for (const v of this.vols.values()) {
        const z = v.rand() + v.rand() + v.rand() + v.rand() - 2;
        v.vol = Math.min(Math.max(v.vol * (1 + 0.02 * z * 1.732), 0.05), 3);
      }
      for (const q of open) {
        const spot = q.contract && this.get("EQUITY", "US", q.contract.root)?.last;
        const vol = q.contract && this.vols.get(q.contract.root)?.vol;
        if (q.contract && spot && vol) this.set(q, contractPrice(q.contract, spot, vol, at), at, undefined, volumes.get(q));
      }
    }
  }

  /** Writes moved prices back to the instrument master, so balances and positions value at the market. */
  async flush(db: Queryable): Promise<void> {
    if (!this.dirty.size) return;
    const moved = [...this.dirty].map((k) => this.quotes.get(k)!).filter(Boolean);
    this.dirty.clear();
    const stocks = moved.filter((q) => q.instrumentType === "EQUITY");
    const options = moved.filter((q) => q.instrumentType === "OPTION");
    if (stocks.length) {
      await db.query(
        `UPDATE sandbox.instruments i SET last_price = v.p FROM unnest($1::text[], $2::text[], $3::numeric[]) AS v(m, s, p)
          WHERE i.market = v.m AND i.symbol = v.s`,
        [stocks.map((q) => q.market), stocks.map((q) => q.symbol), stocks.map((q) => q.last.toFixed())],
      );
    }
    if (options.length) {
      await db.query(
        "UPDATE sandbox.option_contracts o SET last_price = v.p FROM unnest($1::text[], $2::numeric[]) AS v(s, p) WHERE o.symbol = v.s",
        [options.map((q) => q.symbol), options.map((q) => q.last.toFixed())],
      );
    }
  }
}
