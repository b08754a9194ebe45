import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { parsePositive } from "../money";
import { parseBody } from "../router";
import type { Quote } from "./market";
import { marketDataRoutes, snapshotOf } from "./market-data";
import { runMatching } from "./matching";
import { sessionAt } from "./sessions";
import { trading } from "./state";

/** Market data (market-data.ts) and the market's control calls under /sandbox/market/. */
const CATEGORY_MARKET: Record<string, string> = { US_STOCK: "US", HK_STOCK: "HK", CN_STOCK: "CN", US_OPTION: "US" };

function findQuote(sb: Sandbox, symbol: string, category?: string, market?: string): Quote {
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

  marketDataRoutes(app, sb);

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
    return snapshotOf(t, q);
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
