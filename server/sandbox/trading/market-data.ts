import "server-only";
import type { Hono } from "hono";
import { OPERATIONS, type OperationName } from "@/server/wire/operations";
import { isTradingDay } from "../calendar";
import type { Ctx, HonoEnv, OpContext, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { list } from "../paging";
import { marketDataLimit } from "../rate-limit";
import { jsonResponse, parseBody, route } from "../router";
import { greeks, yearsToExpiry } from "./greeks";
import type { Quote } from "./market";
import { localTime, sessionAt, type Market, type Session } from "./sessions";
import { trading, type Trading } from "./state";
import {
  barsOf,
  bucketOf,
  fmt,
  INTRADAY,
  roundPrice,
  seedOf,
  SESSION_NAMES,
  TIMESPANS,
  unit,
  type Agg,
  type SessionFilter,
  type Tick,
} from "./tape";

/**
 * The Market Data API for stocks and US options, answered from the simulated market's tapes (tape.ts): snapshots,
 * depth quotes, ticks, bars, batch bars, footprint, NOII, and the option snapshot with Black–Scholes greeks.
 * docs/sandbox-api.md lists each route with the SDK method that calls it.
 */
type Query = Record<string, unknown>;

const STOCK_CATEGORIES: Record<string, Market> = { US_STOCK: "US", US_ETF: "US", HK_STOCK: "HK", HK_ETF: "HK", CN_STOCK: "CN" };
const SESSION_PARAMS: Record<string, Session> = { RTH: "CORE", PRE: "PRE", ATH: "AFTER", OVN: "NIGHT" };
const CORE: SessionFilter = new Set<Session>(["CORE"]);
const EXTENDED: SessionFilter = new Set<Session>(["PRE", "AFTER"]);
const NIGHT: SessionFilter = new Set<Session>(["NIGHT"]);

const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
const truthy = (v: unknown) => v === true || text(v).toLowerCase() === "true";

function symbolsOf(v: unknown, max: number): string[] {
  const symbols = (Array.isArray(v) ? v.map(text) : text(v).split(",")).map((s) => s.trim()).filter(Boolean);
  if (!symbols.length) throw illegal("symbols is required.");
  if (symbols.length > max) throw business("TOO_MANY_SYMBOLS", `At most ${max} symbols per call.`);
  return symbols;
}

function countOf(v: unknown, def: number, max: number, name = "count"): number {
  if (v === undefined || v === "") return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw illegal(`${name} must be 1 to ${max}.`);
  return n;
}

function timespanOf(v: unknown, allowed: string[] = TIMESPANS): string {
  const ts = text(v) || "D";
  if (!allowed.includes(ts)) throw illegal(`timespan must be one of ${allowed.join(", ")}.`);
  return ts;
}

/** `trading_sessions` (RTH, PRE, ATH, OVN; comma list): undefined = every session. */
function sessionsOf(v: unknown): SessionFilter {
  const names = (Array.isArray(v) ? v.map(text) : text(v).split(",")).map((s) => s.trim()).filter(Boolean);
  if (!names.length) return undefined;
  return new Set(
    names.map((n) => {
      const s = SESSION_PARAMS[n];
      if (!s) throw illegal("trading_sessions must be among RTH, PRE, ATH, OVN.");
      return s;
    }),
  );
}

const iso = (t: number) => new Date(t).toISOString();
const ratio = (change: number, base: number) => (base ? (change / base).toFixed(6) : "0");

/** The tape's present: the market clock, or the last trade when the clock was moved back before it. */
const asOf = (t: Trading, q: Quote) => Math.max(t.now().getTime(), q.tape.lastTime());
const signed = (v: number, ref: number) => v.toFixed(ref < 1 ? 3 : 2);

const day = (t: Trading, q: Quote, filter: SessionFilter): Agg | undefined => {
  const now = asOf(t, q);
  return q.tape.aggregate(bucketOf("D", now)[0], now + 1, filter);
};

const barView = (b: { from: number; agg: Agg }) => ({
  time: iso(b.from),
  open: fmt(b.agg.open),
  close: fmt(b.agg.close),
  high: fmt(b.agg.high),
  low: fmt(b.agg.low),
  volume: String(b.agg.volume),
  trading_session: SESSION_NAMES[b.agg.session],
});

/** An instrument's last `count` bars of a timespan over every session, as the bars route answers them. */
export function barsFor(t: Trading, q: Quote, timespan: string, count: number) {
  return barsOf(q.tape, timespan, count, asOf(t, q), undefined).map(barView);
}

/** One snapshot: the last trade, the session's quote, and the regular session's statistics (UTC day) from the tape. */
export function snapshotOf(t: Trading, q: Quote, o: { extended?: boolean; overnight?: boolean } = {}) {
  const now = asOf(t, q);
  const { bid, ask } = t.market.spread(q);
  const last: Tick = q.tape.live[q.tape.live.length - 1];
  const price = q.last.toNumber();
  // The regular session's figures: today's, or on a day without one yet (a weekend, a holiday, before the open) the
  // last session's, with the close of the one before it, as a quote reads all weekend.
  const [latest, before] = barsOf(q.tape, "D", 2, now, CORE);
  const regular = latest?.agg;
  const preClose = before?.agg.close ?? regular?.open ?? price;
  const change = price - preClose;
  const session = sessionAt(q.market as Market, t.now());
  const out: Record<string, unknown> = {
    symbol: q.symbol,
    instrument_id: q.instrumentId,
    market: q.market,
    instrument_type: q.instrumentType,
    category: q.instrumentType === "OPTION" ? "US_OPTION" : `${q.market}_STOCK`,
    price: fmt(price),
    open: fmt(regular?.open ?? price),
    high: fmt(regular?.high ?? price),
    low: fmt(regular?.low ?? price),
    close: fmt(price),
    pre_close: fmt(preClose),
    volume: String(regular?.volume ?? 0),
    deal_amount: (regular?.turnover ?? 0).toFixed(2),
    change: signed(change, price),
    change_ratio: ratio(change, preClose),
    bid: fmt(bid.toNumber()),
    ask: fmt(ask.toNumber()),
    bid_size: q.liquidity.toFixed(0),
    ask_size: q.liquidity.toFixed(0),
    trade_time: iso(last.t),
    last_trade_time: last.t,
    quote_time: now,
    trading_session: SESSION_NAMES[session],
    session,
  };
  const extra = (prefix: string, priceKey: string, a: Agg | undefined) => {
    if (!a) return;
    const c = a.close - (regular?.close ?? preClose);
    Object.assign(out, {
      [`${prefix}_last_trade_time`]: a.lastT,
      [priceKey]: fmt(a.close),
      [`${prefix}_high`]: fmt(a.high),
      [`${prefix}_low`]: fmt(a.low),
      [`${prefix}_volume`]: String(a.volume),
      [`${prefix}_change`]: signed(c, a.close),
      [`${prefix}_change_ratio`]: ratio(c, regular?.close ?? preClose),
    });
  };
  if (o.extended && q.market === "US") extra("extend_hour", "extend_hour_last_price", day(t, q, EXTENDED));
  if (o.overnight && q.market === "US") {
    extra("ovn", "ovn_price", day(t, q, NIGHT));
    Object.assign(out, { ovn_bid: out.bid, ovn_ask: out.ask, ovn_bid_size: out.bid_size, ovn_ask_size: out.ask_size });
  }
  return out;
}

export function marketDataRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  const t = trading(sb);

  const stockQuote = (symbol: string, category: unknown, market?: unknown): Quote => {
    const cat = text(category);
    if (cat && !STOCK_CATEGORIES[cat]) throw business("UNSUPPORTED_CATEGORY", `category ${cat} is not supported here.`);
    const q = t.market.get("EQUITY", text(market) || (cat ? STOCK_CATEGORIES[cat] : "US"), symbol);
    if (!q) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
    return q;
  };
  const optionQuote = (symbol: string, category: unknown): Quote => {
    const cat = text(category) || "US_OPTION";
    if (cat !== "US_OPTION") throw business("UNSUPPORTED_CATEGORY", `category ${cat} is not supported here; use US_OPTION.`);
    const q = t.market.get("OPTION", "US", symbol);
    if (!q) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
    return q;
  };

  // Every market-data call: 600 a minute per app key (facts §6.2), then the market's prices.
  const admit = async (c: Ctx) => {
    marketDataLimit(sb, c.get("principal").appKey);
    await t.market.load(sb.engine, t.now());
  };
  const md = (name: OperationName, fn: (ctx: OpContext, q: Query) => unknown) =>
    route(app, sb, name, async (ctx) => {
      await admit(ctx.c);
      return fn(ctx, { ...ctx.query, ...ctx.body });
    });

  const bars = (quote: Quote, p: Query) =>
    barsOf(quote.tape, timespanOf(p.timespan), countOf(p.count, 200, 1200), asOf(t, quote), sessionsOf(p.trading_sessions)).map(barView);
  const tickView = (k: Tick) => ({
    time: iso(k.t),
    price: fmt(k.price),
    volume: String(k.volume),
    side: k.side,
    trading_session: SESSION_NAMES[k.session],
  });
  const ticks = (q: Quote, count: number, filter: SessionFilter) => ({
    symbol: q.symbol,
    instrument_id: q.instrumentId,
    result: q.tape.recent(count, asOf(t, q), filter).map(tickView),
  });

  // Stocks ---------------------------------------------------------------------------------------------------------

  /** Snapshots of (category, symbols) groups, at most 100 symbols in all. */
  const snapshots = (groups: { category: unknown; symbols: unknown }[], p: Query) => {
    const o = { extended: truthy(p.extend_hour_required), overnight: truthy(p.overnight_required) };
    const all = groups.flatMap((g) => symbolsOf(g.symbols, 100).map((s) => [g.category, s] as const));
    if (all.length > 100) throw business("TOO_MANY_SYMBOLS", "At most 100 symbols per call.");
    // US_OPTION is still answered here (the option snapshot has the greeks).
    return all.map(([category, s]) =>
      snapshotOf(t, text(category) === "US_OPTION" ? optionQuote(s, category) : stockQuote(s, category, p.market), o),
    );
  };
  md("getStockSnapshot", (ctx, p) => list(ctx, snapshots([{ category: p.category, symbols: p.symbols }], p)));

  md("getStockQuotes", (_ctx, p) => {
    const q = stockQuote(text(p.symbol) || text(p.symbols), p.category, p.market);
    const depth = countOf(p.depth, 1, 50, "depth");
    const { bid, ask } = t.market.spread(q);
    const tick = q.last.lt(1) ? 0.001 : 0.01;
    const seed = seedOf(`${q.key}:depth`);
    const size = (side: number, level: number) =>
      level === 0
        ? q.liquidity.toFixed(0)
        : String(Math.max(1, Math.round(q.liquidity.toNumber() * (0.5 + unit(seed, side * 64 + level, q.steps)))));
    const levels = (top: number, dir: number, side: number) =>
      Array.from({ length: depth }, (_, i) => roundPrice(top + dir * i * tick))
        .filter((p, i) => i === 0 || p > tick)
        .map((p, i) => ({ price: fmt(p), size: size(side, i) }));
    return {
      symbol: q.symbol,
      instrument_id: q.instrumentId,
      quote_time: asOf(t, q),
      trading_session: SESSION_NAMES[sessionAt(q.market as Market, t.now())],
      asks: levels(ask.toNumber(), 1, 1),
      bids: levels(bid.toNumber(), -1, 2),
    };
  });

  md("listStockTicks", (_ctx, p) =>
    ticks(stockQuote(text(p.symbol), p.category, p.market), countOf(p.count, 30, 1000), sessionsOf(p.trading_sessions)),
  );

  md("listStockBars", (ctx, p) => list(ctx, bars(stockQuote(text(p.symbol), p.category, p.market), p)));
  // The resource-style snapshot and bars calls are POSTs upstream (facts §4.3; the display reference documents the
  // snapshot's body as `category_symbols: [{category, symbols}]`): the same answers from a JSON body.
  const postAlso = (path: string, fn: (p: Query) => unknown) =>
    app.post(path, async (c) => {
      await admit(c);
      return jsonResponse(c, { data: fn(parseBody(c.get("rawBody"))) });
    });
  postAlso(OPERATIONS.getStockSnapshot.resource, (p) => {
    if (!Array.isArray(p.category_symbols)) return snapshots([{ category: p.category, symbols: p.symbols }], p);
    const groups = p.category_symbols.map((g: unknown) => {
      if (typeof g !== "object" || g === null || Array.isArray(g)) throw illegal("category_symbols items are {category, symbols}.");
      return g as { category: unknown; symbols: unknown };
    });
    return snapshots(groups, p);
  });
  postAlso(OPERATIONS.listStockBars.resource, (p) => bars(stockQuote(text(p.symbol), p.category, p.market), p));

  md("listStockBatchBars", (ctx, p) => {
    const result = symbolsOf(p.symbols, 100).map((s) => {
      const q = stockQuote(s, p.category, p.market);
      return { symbol: q.symbol, instrument_id: q.instrumentId, result: bars(q, p) };
    });
    return ctx.style === "legacy" ? { result } : { data: result };
  });

  md("listStockFootprints", (ctx, p) => {
    const timespan = timespanOf(p.timespan || "M1", INTRADAY);
    const count = countOf(p.count, 200, 1200);
    const filter = sessionsOf(p.trading_sessions);
    const detail = (m: Map<string, number> | undefined) => Object.fromEntries([...(m ?? new Map<string, number>())].sort());
    const items = symbolsOf(p.symbols ?? p.symbol, 20).map((s) => {
      const q = stockQuote(s, p.category, p.market);
      const result = barsOf(q.tape, timespan, count, asOf(t, q), filter, true).map(({ from, agg }) => {
        const buy = [...agg.buy!.values()].reduce((a, b) => a + b, 0);
        const sell = [...agg.sell!.values()].reduce((a, b) => a + b, 0);
        return {
          time: iso(from),
          trading_session: SESSION_NAMES[agg.session],
          total: String(agg.volume),
          delta: String(buy - sell),
          buy_total: String(buy),
          sell_total: String(sell),
          buy_detail: detail(agg.buy),
          sell_detail: detail(agg.sell),
        };
      });
      return { symbol: q.symbol, instrument_id: q.instrumentId, result };
    });
    return list(ctx, items);
  });

  // NOII: NASDAQ-style auction imbalance, published every 5 s in the opening (09:28–09:30 New York) and closing
  // (15:50–16:00) windows. Outside a window the last window's updates are answered (in_auction_window false).
  const WINDOWS: Record<string, [number, number]> = { PRE_OPEN: [9 * 60 + 28, 9 * 60 + 30], PRE_CLOSE: [15 * 60 + 50, 16 * 60] };
  const utcOf = (date: string, minute: number) => {
    const midnight = Date.parse(`${date}T00:00:00Z`);
    let guess = midnight + minute * 60_000 + 5 * 3_600_000;
    for (let i = 0; i < 2; i += 1) {
      const lt = localTime("US", new Date(guess));
      guess += ((midnight - Date.parse(`${lt.date}T00:00:00Z`)) / 60_000 + minute - lt.minute) * 60_000;
    }
    return guess;
  };
  function noii(p: Query) {
    const cat = text(p.category) || "US_STOCK";
    if (cat !== "US_STOCK" && cat !== "US_ETF") throw business("UNSUPPORTED_CATEGORY", "NOII is published for US stocks only.");
    const q = stockQuote(text(p.symbol), cat);
    const type = text(p.imbalance_action_type);
    const win = WINDOWS[type];
    if (!win) throw illegal("imbalance_action_type must be PRE_OPEN or PRE_CLOSE.");
    const now = t.now().getTime();
    let date = localTime("US", new Date(now)).date;
    let window: [number, number] | undefined;
    for (let i = 0; i < 15 && !window; i += 1) {
      const from = utcOf(date, win[0]);
      if (isTradingDay("US", new Date(`${date}T00:00:00Z`)) && from <= now) window = [from, utcOf(date, win[1])];
      date = new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    }
    const updates = [];
    if (window) {
      const live = now < window[1];
      const seed = seedOf(`${q.key}:noii:${type}`);
      for (let at = window[0]; at <= Math.min(now, window[1] - 5_000); at += 5_000) {
        const slot = at / 5_000;
        const ref = q.tape.priceAt(at);
        const imbalance = Math.floor(unit(seed, 2, slot) * 150_000);
        const side = imbalance === 0 ? "NONE" : unit(seed, 3, slot) < 0.5 ? "BUY" : "SELL";
        const dir = side === "SELL" ? -1 : 1;
        updates.unshift({
          symbol: q.symbol,
          instrument_id: q.instrumentId,
          imbalance_action_type: type,
          time: iso(at),
          auction_time: iso(window[1]),
          in_auction_window: live,
          reference_price: fmt(ref),
          near_indicative_price: fmt(roundPrice(ref * (1 + dir * unit(seed, 4, slot) * 0.002))),
          far_indicative_price: fmt(roundPrice(ref * (1 + dir * unit(seed, 5, slot) * 0.005))),
          paired_shares: String(50_000 + Math.floor(unit(seed, 1, slot) * 450_000)),
          imbalance_shares: String(imbalance),
          imbalance_side: side,
        });
      }
    }
    return updates;
  }
  md("getStockNoiiSnapshot", (_ctx, p) => noii(p)[0] ?? {});
  md("listStockNoiiBars", (ctx, p) => list(ctx, noii(p)));

  // US options ------------------------------------------------------------------------------------------------------

  md("getOptionSnapshot", (ctx, p) =>
    list(
      ctx,
      symbolsOf(p.symbols, 20).map((s) => {
        const q = optionQuote(s, p.category);
        const c = q.contract;
        const spot = c && t.market.get("EQUITY", "US", c.root)?.last.toNumber();
        const out = snapshotOf(t, q);
        if (!c || !spot) return out;
        const g = greeks({ type: c.type, spot, strike: c.strike.toNumber(), years: yearsToExpiry(c.expiry, t.now()) }, q.last.toNumber());
        return {
          ...out,
          underlying_symbol: c.root,
          underlying_price: fmt(spot),
          option_type: c.type,
          strike_price: c.strike.toFixed(2),
          expire_date: c.expiry,
          open_interest: String(100 + Math.floor(unit(seedOf(`${q.key}:oi`), 1, Math.floor(asOf(t, q) / 86_400_000)) * 20_000)),
          delta: g.delta.toFixed(6),
          gamma: g.gamma.toFixed(6),
          theta: g.theta.toFixed(6),
          vega: g.vega.toFixed(6),
          rho: g.rho.toFixed(6),
          imp_vol: g.imp_vol.toFixed(6),
        };
      }),
    ),
  );

  md("listOptionBars", (ctx, p) =>
    list(
      ctx,
      symbolsOf(p.symbols ?? p.symbol, 20).map((s) => {
        const q = optionQuote(s, p.category);
        return { symbol: q.symbol, instrument_id: q.instrumentId, result: bars(q, p) };
      }),
    ),
  );

  md("listOptionTicks", (_ctx, p) => ticks(optionQuote(text(p.symbol), p.category), countOf(p.count, 30, 1200), undefined));
}
