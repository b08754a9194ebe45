import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, OpContext, Sandbox } from "../context";
import { business } from "../errors";
import { Decimal } from "../money";
import { route } from "../router";
import { barsFor } from "../trading/market-data";
import { trading } from "../trading/state";
import { oneOf, required } from "../validate";
import {
  closeDaysAgo,
  facts,
  GAINER_PERIODS,
  pageOf,
  rowsOf,
  SECTORS,
  sectorOf,
  SORT_FIELDS,
  sortRows,
  STOCK_CATEGORIES,
  type ScreenerRow,
} from "./reference";

/**
 * The six screeners, ranked from the simulated market's own quotes (reference.ts). Legacy paths (x-version v2) page
 * with page_index / page_size and answer {"data": [...], "has_more"}; the SDKs' v3 paths answer the whole ranking as
 * a bare array, except market sectors ({"data", "pagination_key"}, as Java's PaginatedResult<MarketSector>).
 */
const dp = (d: Decimal, places: number) => d.toDecimalPlaces(places).toFixed(places);
const sortField = (v: string | undefined, fallback: string) => oneOf(v, SORT_FIELDS, "sort_by") ?? fallback;

function ranked<T extends { symbol: string }>(ctx: OpContext, rows: T[]) {
  if (ctx.style === "resource") return rows;
  const { items, hasMore } = pageOf(ctx, rows);
  return { data: items, has_more: hasMore };
}

/** change / change_ratio over a gainers period: DAY_1 (and the extended sessions, one price here) = the snapshot's. */
function periodChange(sb: Sandbox, r: { q: Parameters<typeof closeDaysAgo>[1]; row: ScreenerRow }, rankType: string): ScreenerRow {
  const period = GAINER_PERIODS[rankType];
  if (!period) return r.row;
  const t = trading(sb);
  const base =
    period.span === "D" ? closeDaysAgo(sb, r.q, period.back) : new Decimal(barsFor(t, r.q, "M1", period.back + 1)[period.back].close);
  const change = new Decimal(r.row.price).minus(base);
  return { ...r.row, change: dp(change, 2), change_ratio: dp(change.div(base), 6) };
}

const PERIOD_DAYS: Record<string, number> = { D1: 0, D5: 5, M01: 21, M03: 63 };

/** The sessions before today a 52-week range covers. */
const YEAR_OF_SESSIONS = 251;

/**
 * Reads a year of daily bars of every screened stock, a few weeks of one stock at a time between the event loop's
 * other work, so the first 52-week ranking finds them computed: cold, it folds some 650,000 history ticks a stock
 * (seconds of one core for a market), and the caller's timeout can run out meanwhile. The days before the load never
 * change (the tape keeps them). `startSandbox({ warmHistory })`; the tests' sandboxes compute on demand.
 */
export async function warmYearOfBars(sb: Sandbox, signal: AbortSignal): Promise<void> {
  const t = trading(sb);
  for (const category of STOCK_CATEGORIES) {
    for (const { q } of await rowsOf(sb, category)) {
      for (let days = 21; days < YEAR_OF_SESSIONS + 21; days += 21) {
        if (signal.aborted) return;
        barsFor(t, q, "D", Math.min(days, YEAR_OF_SESSIONS + 1));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
}

export function screenerRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "getGainersLosers", async (ctx) => {
    const rankType = oneOf(ctx.query.rank_type, Object.keys(GAINER_PERIODS), "rank_type") ?? "DAY_1";
    const rows = (await rowsOf(sb, ctx.query.category)).map((r) => periodChange(sb, r, rankType));
    return ranked(ctx, sortRows(rows, sortField(ctx.query.sort_by, "CHANGE_RATIO"), ctx.query.direction));
  });

  route(app, sb, "getTopActive", async (ctx) => {
    const rankType =
      oneOf(ctx.query.rank_type, ["VOLUME", "RELATIVE_VOLUME_10D", "TURNOVER", "TURNOVER_RATE", "AMPLITUDE"], "rank_type") ?? "VOLUME";
    const rows = (await rowsOf(sb, ctx.query.category)).map((r) => r.row);
    return ranked(ctx, sortRows(rows, sortField(ctx.query.sort_by, rankType), ctx.query.direction));
  });

  route(app, sb, "getHighDividend", async (ctx) => {
    const rows = (await rowsOf(sb, ctx.query.category)).flatMap(({ i, row }) => {
      const dividend = facts(sb, i).dividendTtm;
      if (dividend.isZero()) return [];
      return [{ ...row, dividend: dp(dividend, 2), yield: dp(dividend.div(row.price), 6) }];
    });
    return ranked(ctx, sortRows(rows, sortField(ctx.query.sort_by, "YIELD"), ctx.query.direction));
  });

  // NEW_HIGH: the price is at or above every daily high of the 251 sessions before (NEW_LOW alike); NEAR_*: within 5 %.
  route(app, sb, "get52WeekHighLow", async (ctx) => {
    const rankType = oneOf(ctx.query.rank_type, ["NEW_HIGH", "NEAR_HIGH", "NEW_LOW", "NEAR_LOW"], "rank_type") ?? "NEW_HIGH";
    const t = trading(sb);
    const rows = (await rowsOf(sb, ctx.query.category)).flatMap(({ q, row }) => {
      const year = barsFor(t, q, "D", YEAR_OF_SESSIONS + 1).slice(1);
      const high = Decimal.max(q.high, ...year.map((b) => b.high));
      const low = Decimal.min(q.low, ...year.map((b) => b.low));
      const last = new Decimal(row.price);
      const base = new Decimal(year[year.length - 1].close);
      const hit = {
        NEW_HIGH: last.gte(high),
        NEAR_HIGH: last.lt(high) && last.gte(high.times(0.95)),
        NEW_LOW: last.lte(low),
        NEAR_LOW: last.gt(low) && last.lte(low.times(1.05)),
      }[rankType];
      if (!hit) return [];
      return [{ ...row, high_52w: high.toFixed(2), low_52w: low.toFixed(2), change_ratio_52w: dp(last.minus(base).div(base), 6) }];
    });
    return ranked(ctx, sortRows(rows, sortField(ctx.query.sort_by, "CHANGE_RATIO_52W"), ctx.query.direction));
  });

  /** One sector's members and totals: change ratio weighted by market value, over the period. */
  const sectorView = async (ctx: OpContext, sector: (typeof SECTORS)[number]) => {
    const days = PERIOD_DAYS[oneOf(ctx.query.period, Object.keys(PERIOD_DAYS), "period") ?? "D1"];
    const members = (await rowsOf(sb, ctx.query.category))
      .filter(({ i }) => sectorOf(i.symbol)?.id === sector.id)
      .map((r) => {
        if (!days) return r.row;
        const base = closeDaysAgo(sb, r.q, days);
        const change = new Decimal(r.row.price).minus(base);
        return { ...r.row, change: dp(change, 2), change_ratio: dp(change.div(base), 6) };
      });
    const value = members.reduce((a, m) => a.plus(m.market_value), new Decimal(0));
    const weighted = members.reduce((a, m) => a.plus(new Decimal(m.change_ratio).times(m.market_value)), new Decimal(0));
    const leader = sortRows(members, "CHANGE_RATIO", "DESC")[0];
    return {
      members,
      summary: {
        sector_id: sector.id,
        sector_name: sector.name,
        change_ratio: value.isZero() ? "0.000000" : dp(weighted.div(value), 6),
        market_value: dp(value, 2),
        volume: members.reduce((a, m) => a.plus(m.volume), new Decimal(0)).toFixed(0),
        rise_count: members.filter((m) => new Decimal(m.change_ratio).gt(0)).length,
        fall_count: members.filter((m) => new Decimal(m.change_ratio).lt(0)).length,
        flat_count: members.filter((m) => new Decimal(m.change_ratio).isZero()).length,
        stock_count: members.length,
        leading_symbol: leader?.symbol,
        leading_change_ratio: leader?.change_ratio,
      },
    };
  };

  route(app, sb, "listMarketSectors", async (ctx) => {
    const agg = oneOf(ctx.query.agg_type, ["MARKET_VALUE", "VOLUME"], "agg_type") ?? "MARKET_VALUE";
    const all = (await Promise.all(SECTORS.map((s) => sectorView(ctx, s)))).map((v) => v.summary).filter((s) => s.stock_count > 0);
    const sorted = sortRows(
      all.map((s) => ({ ...s, symbol: s.sector_id })),
      agg,
      ctx.query.direction,
    ).map(({ symbol: _, ...s }) => s);
    // Every sector fits one page: the resource answer carries no pagination_key.
    return ctx.style === "legacy" ? pageOf(ctx, sorted).items : { data: sorted };
  });

  route(app, sb, "getMarketSectorDetail", async (ctx) => {
    const id = required(ctx.query, "sector_id");
    const sector = SECTORS.find((s) => s.id === id);
    if (!sector) throw business("SECTOR_NOT_FOUND", `Sector ${id} does not exist.`);
    const { members, summary } = await sectorView(ctx, sector);
    const { items, hasMore } = pageOf(ctx, sortRows(members, sortField(ctx.query.sort_by, "CHANGE_RATIO"), ctx.query.direction));
    return { ...summary, has_more: hasMore, data: items };
  });
}
