import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, OpContext, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { list } from "../paging";
import { parsePositive, price } from "../money";
import { parseBody, route } from "../router";
import { required } from "../validate";
import { bars, TIMESPANS, type Quote } from "./market";
import { runMatching } from "./matching";
import { sessionAt, type Market } from "./sessions";
import { trading } from "./state";

/** Market data (snapshot, bars) and the market's control calls under /sandbox/market/. */
const CATEGORY_MARKET: Record<string, string> = { US_STOCK: "US", HK_STOCK: "HK", CN_STOCK: "CN", US_OPTION: "US" };

export function snapshot(sb: Sandbox, q: Quote) {
  const t = trading(sb);
  const { bid, ask } = t.market.spread(q);
  const change = q.last.minus(q.open);
  return {
    symbol: q.symbol,
    market: q.market,
    instrument_type: q.instrumentType,
    category: q.instrumentType === "OPTION" ? "US_OPTION" : `${q.market}_STOCK`,
    price: price(q.last),
    open: price(q.open),
    high: price(q.high),
    low: price(q.low),
    pre_close: price(q.open),
    volume: q.volume.toFixed(0),
    bid: price(bid),
    ask: price(ask),
    bid_size: q.liquidity.toFixed(0),
    ask_size: q.liquidity.toFixed(0),
    change: price(change),
    change_ratio: q.open.isZero() ? "0" : change.div(q.open).toDecimalPlaces(6).toString(),
    trade_time: q.updatedAt.toISOString(),
    session: sessionAt(q.market as Market, t.now()),
  };
}

export function findQuote(sb: Sandbox, symbol: string, category?: string, market?: string): Quote {
  const t = trading(sb);
  const m = market ?? (category ? CATEGORY_MARKET[category] : undefined) ?? "US";
  const q =
    category === "US_OPTION"
      ? t.market.get("OPTION", "US", symbol)
      : (t.market.get("EQUITY", m, symbol) ?? t.market.get("OPTION", "US", symbol));
  if (!q) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
  return q;
}

export function marketRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  const t = trading(sb);
  const load = () => t.market.load(sb.engine, t.now());

  route(app, sb, "getStockSnapshot", async (ctx: OpContext) => {
    await load();
    const symbols = required(ctx.query, "symbols").split(",").filter(Boolean);
    if (symbols.length > 100) throw business("TOO_MANY_SYMBOLS", "At most 100 symbols per call.");
    return list(
      ctx,
      symbols.map((s) => snapshot(sb, findQuote(sb, s, ctx.query.category, ctx.query.market))),
    );
  });

  const barsOf = async (q: Record<string, unknown>) => {
    await load();
    const quote = findQuote(sb, String(q.symbol ?? ""), q.category as string | undefined, q.market as string | undefined);
    const timespan = String(q.timespan ?? "D");
    if (!TIMESPANS.includes(timespan)) throw illegal(`timespan must be one of ${TIMESPANS.join(", ")}.`);
    const count = Number(q.count ?? 200);
    if (!Number.isInteger(count) || count < 1 || count > 1200) throw illegal("count must be 1 to 1200.");
    return bars(t.market, quote, timespan, count, t.now());
  };
  route(app, sb, "listStockBars", (ctx) => barsOf(ctx.query).then((b) => list(ctx, b)));
  app.post("/market-data/stocks/bars/list", async (c) => c.json({ data: await barsOf(parseBody(c.get("rawBody"))) }));

  const post = (path: string, fn: (b: Record<string, unknown>) => Promise<unknown>) =>
    app.post(path, async (c) => c.json((await fn(parseBody(c.get("rawBody")))) as object));

  // Pins a price (and optionally the liquidity one matching pass may take per order), then matches.
  post("/sandbox/market/price", async (b) => {
    await load();
    const q = findQuote(sb, String(b.symbol ?? ""), b.category as string | undefined, b.market as string | undefined);
    t.market.set(
      q,
      parsePositive(b.price, "price"),
      t.now(),
      b.liquidity === undefined ? undefined : parsePositive(b.liquidity, "liquidity"),
    );
    await runMatching(sb);
    return snapshot(sb, q);
  });

  // Stops (or restarts) the market timer's steps, so what a test reads twice stays the same; control calls still move it.
  post("/sandbox/market/pause", async (b) => {
    t.market.paused = b.paused !== false;
    return { paused: t.market.paused };
  });

  // Advances the random walk by `steps` and the market clock by `advance_seconds`, then matches.
  post("/sandbox/market/tick", async (b) => {
    await load();
    const steps = Number(b.steps ?? 1);
    if (!Number.isInteger(steps) || steps < 0 || steps > 1000) throw illegal("steps must be 0 to 1000.");
    advance(b.advance_seconds);
    t.market.step(t.now(), steps);
    await runMatching(sb);
    return clockView();
  });

  const advance = (seconds: unknown) => {
    if (seconds === undefined) return;
    const s = Number(seconds);
    if (!Number.isFinite(s) || s < 0 || s > 400 * 86_400) throw illegal("advance_seconds must be 0 to 34560000.");
    if (t.clock.pinned) t.clock.pinned = new Date(t.clock.pinned.getTime() + s * 1000);
    else t.clock.offsetMs += s * 1000;
  };
  const clockView = () => {
    const now = t.now();
    return {
      now: now.toISOString(),
      pinned: !!t.clock.pinned,
      sessions: { US: sessionAt("US", now), HK: sessionAt("HK", now), CN: sessionAt("CN", now) },
    };
  };

  // Market clock: `now` pins it (null unpins), `advance_seconds` moves it. Only trading uses this clock.
  post("/sandbox/market/clock", async (b) => {
    if (b.now === null) t.clock.pinned = undefined;
    else if (b.now !== undefined) {
      const ms = Date.parse(String(b.now));
      if (Number.isNaN(ms)) throw illegal("now must be an ISO-8601 time.");
      t.clock.pinned = new Date(ms);
    }
    advance(b.advance_seconds);
    if (b.match !== false) await runMatching(sb);
    return clockView();
  });
  app.get("/sandbox/market/clock", (c) => c.json(clockView()));
  post("/sandbox/orders/match", async () => (await runMatching(sb), { matched: true }));
}
