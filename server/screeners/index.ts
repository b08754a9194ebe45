import "server-only";
import { broker } from "@/server/broker";
import type { ScreenerStock } from "@/server/broker/schemas/screeners";
import {
  ACTIVE_RANKS,
  CATEGORY_MARKET,
  GAINER_RANKS,
  SCREENER_ROWS,
  WEEK52_RANKS,
  type ScreenerAnswer,
  type ScreenerParams,
} from "@/lib/schemas/screeners";
import { SharedCache } from "./cache";

/**
 * The desk's screeners: the Market Data API's six rankings through the Broker client, shared by every viewer for
 * 30 s (a ranking moves with the market; one upstream call per screener and variant per 30 s however many staff
 * look). What the page shows is the answer as the upstream ranked it, cut to its first rows.
 */
export const SCREENER_TTL_MS = 30_000;

const cache = new SharedCache<ScreenerAnswer>(SCREENER_TTL_MS);

const pick = <T extends string>(value: string | undefined, allowed: readonly T[]): T =>
  (allowed as readonly string[]).includes(value ?? "") ? (value as T) : allowed[0];

async function read(p: ScreenerParams, signal?: AbortSignal): Promise<ScreenerAnswer> {
  const b = broker();
  const ro = { signal };
  // The v2 calls page (page_index, page_size); the SDKs' v3 calls send no paging and get the whole ranking.
  const page = b.config.pathStyle === "legacy" ? { page_index: 1, page_size: SCREENER_ROWS } : {};
  const base = {
    screener: p.screener,
    category: p.category,
    market: CATEGORY_MARKET[p.category],
    fetchedAt: new Date().toISOString(),
    hasMore: false,
  };
  const ranked = (r: { rows: ScreenerStock[]; hasMore: boolean }) => ({
    ...base,
    rows: r.rows.slice(0, SCREENER_ROWS),
    hasMore: r.hasMore || r.rows.length > SCREENER_ROWS,
  });
  switch (p.screener) {
    case "gainers":
      return ranked(
        await b.getGainersLosers(
          { category: p.category, rank_type: pick(p.rank, GAINER_RANKS), sort_by: "CHANGE_RATIO", direction: p.direction, ...page },
          ro,
        ),
      );
    case "top-active":
      return ranked(await b.getTopActive({ category: p.category, rank_type: pick(p.rank, ACTIVE_RANKS), direction: "DESC", ...page }, ro));
    case "high-dividend":
      return ranked(await b.getHighDividend({ category: p.category, sort_by: "YIELD", direction: "DESC", ...page }, ro));
    case "week52":
      return ranked(await b.get52WeekHighLow({ category: p.category, rank_type: pick(p.rank, WEEK52_RANKS), ...page }, ro));
    case "sectors":
      return {
        ...base,
        rows: [],
        sectors: await b.listMarketSectors({ category: p.category, agg_type: "MARKET_VALUE", direction: "DESC" }, ro),
      };
    case "sector-detail": {
      const sectorId =
        p.sector_id ?? (await b.listMarketSectors({ category: p.category, agg_type: "MARKET_VALUE", direction: "DESC" }, ro))[0]?.sector_id;
      if (!sectorId) return { ...base, rows: [] };
      const { data, has_more, ...sector } = await b.getMarketSectorDetail(
        { category: p.category, sector_id: sectorId, sort_by: "CHANGE_RATIO", direction: "DESC", ...page },
        ro,
      );
      return { ...base, rows: data.slice(0, SCREENER_ROWS), sector, hasMore: !!has_more || data.length > SCREENER_ROWS };
    }
  }
}

/** One screener as the page shows it, from the shared cache (one upstream call per key per 30 s). */
export function loadScreener(p: ScreenerParams): Promise<ScreenerAnswer> {
  const key = [p.screener, p.category, p.direction, p.rank ?? "", p.sector_id ?? ""].join("|");
  // The shared call is not tied to one viewer's request: a viewer who leaves does not cancel it for the others.
  return cache.get(key, () => read(p));
}
