import "server-only";
import type { OpContext, Sandbox } from "../context";
import { business } from "../errors";
import { Decimal } from "../money";
import type { InstrumentRow } from "../routes/instruments";
import { SEED_PRICES } from "../seed/catalog";
import type { Quote } from "../trading/market";
import { barsFor, snapshotOf } from "../trading/market-data";
import { sharesOutstanding, unit } from "../trading/instrument-facts";
import { trading } from "../trading/state";
import { oneOf } from "../validate";

/**
 * Reference data of the Market Data API, derived from the instrument master and the simulated market only: nothing is
 * stored. Every figure that is not a price or a volume (shares outstanding, earnings, dividends, fund facts) comes from
 * a hash of (market seed, instrument, label), so the same seed gives the same fundamentals on every run; prices,
 * volumes and the rankings built from them come from the market's own quotes and bars.
 */
export const STOCK_CATEGORIES = ["US_STOCK", "HK_STOCK", "CN_STOCK"] as const;
const MARKET_OF: Record<string, string> = { US_STOCK: "US", HK_STOCK: "HK", CN_STOCK: "CN" };

/** An instrument of the master as these endpoints read it: its columns and the profile's name and exchange. */
export type Instrument = Omit<InstrumentRow, "last_price" | "profile" | "locate"> & { name: string; exchange_code: string };

export const SECTORS = [
  { id: "10001", name: "Information Technology", symbols: ["AAPL", "MSFT", "NVDA", "AMD", "INTC"] },
  { id: "10002", name: "Communication Services", symbols: ["GOOGL", "META", "NFLX", "DIS", "00700", "00941"] },
  { id: "10003", name: "Consumer Discretionary", symbols: ["AMZN", "TSLA", "09988", "03690"] },
  { id: "10004", name: "Consumer Staples", symbols: ["KO", "PEP", "600519", "000858"] },
  { id: "10005", name: "Financials", symbols: ["JPM", "V", "00005", "01299", "601318", "600036", "601398"] },
  { id: "10006", name: "Energy", symbols: ["XOM"] },
  { id: "10007", name: "Industrials", symbols: ["300750"] },
] as const;
export const sectorOf = (symbol: string) => SECTORS.find((s) => (s.symbols as readonly string[]).includes(symbol));

/** The market of a category; absent = US_STOCK (the SDKs' default); anything else is UNSUPPORTED_CATEGORY. */
export function marketOfCategory(category: string | undefined): string {
  const c = category || "US_STOCK";
  if (!(c in MARKET_OF))
    throw business("UNSUPPORTED_CATEGORY", `Category ${c} is not supported; use one of ${STOCK_CATEGORIES.join(", ")}.`);
  return MARKET_OF[c];
}

/** The instrument master of one market: its stocks and ETFs (what the screeners rank), or every instrument. */
export async function instrumentsOf(sb: Sandbox, market: string, every = false): Promise<Instrument[]> {
  const { rows } = await sb.engine.query<Instrument>(
    `SELECT instrument_id, symbol, market, category, sub_category, currency, profile->>'name' AS name, profile->>'exchange_code' AS exchange_code
       FROM sandbox.instruments WHERE market = $1 AND ($2 OR sub_category IN ('COMMON_STOCK', 'ETF')) ORDER BY symbol`,
    [market, every],
  );
  return rows;
}

/** One symbol of a category: unknown → INSTRUMENT_NOT_FOUND, a category other than a stock market's → UNSUPPORTED_CATEGORY. */
export async function instrumentOf(sb: Sandbox, query: Record<string, string>): Promise<Instrument> {
  const market = marketOfCategory(query.category);
  const symbol = query.symbol;
  if (!symbol) throw business("ILLEGAL_PARAMETER", "symbol is required.");
  // Any instrument of the master (a preferred share or a warrant has a profile; its statements and fund data are empty).
  const found = (await instrumentsOf(sb, market, true)).find((i) => i.symbol === symbol);
  if (!found) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
  return found;
}

/** The current quote of an instrument (the market loads its prices on first use). */
export async function quoteOf(sb: Sandbox, i: Instrument): Promise<Quote> {
  const t = trading(sb);
  await t.market.load(sb.engine, t.now());
  const q = t.market.get("EQUITY", i.market, i.symbol);
  if (!q) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
  return q;
}

const dp = (d: Decimal, places: number) => d.toDecimalPlaces(places).toFixed(places);
const ratio = (num: Decimal, den: Decimal) => (den.isZero() ? new Decimal(0) : num.div(den));

/** Fixed per-instrument facts: shares outstanding, trailing EPS, dividend per share (0 when it pays none). */
export function facts(sb: Sandbox, i: Instrument) {
  const seedPrice = seedPriceOf(i);
  const key = `${i.market}:${i.symbol}`;
  const u = (label: string) => unit(sb.config.marketSeed, key, label);
  const shares = new Decimal(sharesOutstanding(sb.config.marketSeed, key));
  const pe0 = 12 + 30 * u("pe");
  const payer = i.sub_category === "ETF" ? u("etf-div") < 0.8 : u("div") < 0.65;
  const yield0 = payer ? 0.004 + 0.05 * u("yield") : 0;
  return {
    shares,
    /** trailing twelve months EPS; ETFs report none */
    epsTtm: i.sub_category === "ETF" ? undefined : seedPrice.div(pe0).toDecimalPlaces(2),
    /** dividends per share over the trailing year, paid quarterly */
    dividendTtm: seedPrice.times(yield0).toDecimalPlaces(2),
  };
}

/** The seed's price of an instrument: the facts stay fixed while the market walks. */
export const seedPriceOf = (i: Instrument) => new Decimal(SEED_PRICES.get(`${i.market}:${i.symbol}`) ?? "1");

/** Close `days` trading days back, from the market's daily bars (which end at the current price). */
export function closeDaysAgo(sb: Sandbox, q: Quote, days: number): Decimal {
  const t = trading(sb);
  const d = barsFor(t, q, "D", days + 1);
  return new Decimal(d[d.length - 1].close);
}

export const GAINER_PERIODS: Record<string, { span: "M1" | "D"; back: number } | undefined> = {
  PRE_MARKET: undefined,
  AFTER_MARKET: undefined,
  DAY_1: undefined,
  MIN_3: { span: "M1", back: 3 },
  MIN_5: { span: "M1", back: 5 },
  DAY_5: { span: "D", back: 5 },
  MONTH_1: { span: "D", back: 21 },
  MONTH_3: { span: "D", back: 63 },
  WEEK_52: { span: "D", back: 252 },
};

/**
 * One screener row of an instrument, from its snapshot (the same numbers GET snapshot answers) plus the derived
 * figures: turnover = volume × price, turnover rate = volume / shares, market value = shares × price, amplitude =
 * (high − low) / previous close, P/E = price / trailing EPS, relative volume = today's volume / mean daily volume of
 * the 10 sessions before.
 */
export function screenerRow(sb: Sandbox, i: Instrument, q: Quote) {
  const t = trading(sb);
  const s = snapshotOf(t, q) as Record<string, string>; // every field of the regular session is a string
  const f = facts(sb, i);
  const last = new Decimal(s.price);
  const preClose = new Decimal(s.pre_close);
  const volume = new Decimal(s.volume);
  const daily = barsFor(t, q, "D", 11).slice(1);
  const avg10 = daily.reduce((a, b) => a.plus(b.volume), new Decimal(0)).div(daily.length);
  return {
    instrument_id: i.instrument_id,
    symbol: i.symbol,
    name: i.name,
    exchange_code: i.exchange_code,
    currency_code: i.currency,
    pre_close: s.pre_close,
    open: s.open,
    high: s.high,
    low: s.low,
    close: s.price,
    price: s.price,
    change: s.change,
    change_ratio: s.change_ratio,
    volume: s.volume,
    turnover: dp(volume.times(last), 2),
    turnover_rate: dp(ratio(volume, f.shares), 6),
    market_value: dp(f.shares.times(last), 2),
    amplitude: dp(ratio(new Decimal(s.high).minus(s.low), preClose), 6),
    pe_ttm: f.epsTtm && !f.epsTtm.isZero() ? dp(last.div(f.epsTtm), 2) : undefined,
    relative_volume_10d: dp(ratio(volume, avg10), 4),
  };
}
export type ScreenerRow = ReturnType<typeof screenerRow>;

/** The rows of every stock and ETF of a category's market. */
export async function rowsOf(sb: Sandbox, category: string | undefined) {
  const market = marketOfCategory(category);
  const out: { i: Instrument; q: Quote; row: ScreenerRow }[] = [];
  for (const i of await instrumentsOf(sb, market)) {
    const q = await quoteOf(sb, i);
    out.push({ i, q, row: screenerRow(sb, i, q) });
  }
  return out;
}

export const SORT_FIELDS = [
  "CHANGE_RATIO",
  "RELATIVE_VOLUME_10D",
  "MARKET_VALUE",
  "CLOSE",
  "PRICE",
  "PE_TTM",
  "HIGH",
  "LOW",
  "AMPLITUDE",
  "TURNOVER",
  "VOLUME",
  "YIELD",
  "DIVIDEND",
  "TURNOVER_RATE",
  "CHANGE_RATIO_52W",
] as const;

/** Sorts by a wire field (missing values last), direction DESC by default, ties by symbol: a total, stable order. */
export function sortRows<T extends { symbol: string }>(rows: T[], field: string, direction: string | undefined): T[] {
  const dir = oneOf(direction, ["ASC", "DESC"], "direction") ?? "DESC";
  const key = field.toLowerCase() as keyof T;
  const num = (r: T) => {
    const v = r[key];
    return v === undefined || v === null || v === "" ? undefined : new Decimal(String(v));
  };
  return [...rows].sort((a, b) => {
    const x = num(a);
    const y = num(b);
    if (!x || !y) return x ? -1 : y ? 1 : a.symbol.localeCompare(b.symbol);
    const c = dir === "DESC" ? y.comparedTo(x) : x.comparedTo(y);
    return c || a.symbol.localeCompare(b.symbol);
  });
}

/** page_index (from 1) and page_size (1–200, default 20) of the legacy screener calls. */
export function pageOf<T>(ctx: OpContext, rows: T[], defaultSize = 20): { items: T[]; hasMore: boolean } {
  const index = ctx.query.page_index === undefined ? 1 : Number(ctx.query.page_index);
  const size = ctx.query.page_size === undefined ? defaultSize : Number(ctx.query.page_size);
  if (!Number.isInteger(index) || index < 1) throw business("ILLEGAL_PARAMETER", "page_index must be an integer from 1.");
  if (!Number.isInteger(size) || size < 1 || size > 200) throw business("ILLEGAL_PARAMETER", "page_size must be an integer from 1 to 200.");
  const start = (index - 1) * size;
  return { items: rows.slice(start, start + size), hasMore: rows.length > start + size };
}
