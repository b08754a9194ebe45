import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, OpContext, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { Decimal } from "../money";
import { list, pageSize } from "../paging";
import { route } from "../router";
import { barsFor } from "../trading/market-data";
import { trading } from "../trading/state";
import { oneOf, parseDate } from "../validate";
import { closeDaysAgo, facts, instrumentOf, instrumentsOf, quoteOf, sectorOf, seedPriceOf, sortRows, type Instrument } from "./reference";
import { unit } from "../trading/instrument-facts";

/**
 * The fundamentals endpoints and the market-data corporate actions. Everything is derived (reference.ts): statements
 * from the seed's price and a hashed P/E and margin, so trailing EPS in the statements, the forecast, the indicators
 * and the screeners' P/E agree; fund data from the market's daily bars. Common stocks have statements and no fund
 * data, ETFs the reverse: the endpoint of the other kind answers its empty shape ([] or an object with an empty list),
 * which is what the upstream answers for a symbol it has no such data for.
 */
const dp = (d: Decimal.Value, places: number) => new Decimal(d).toDecimalPlaces(places).toFixed(places);
const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
const COUNT_MAX = 20;

function countOf(q: Record<string, string>, def = 5, max = COUNT_MAX): number {
  if (q.count === undefined || q.count === "") return def;
  const n = Number(q.count);
  if (!Number.isInteger(n) || n < 1 || n > max) throw illegal(`count must be an integer from 1 to ${max}.`);
  return n;
}

/** Calendar quarter ends strictly before `at`, newest first. */
function quarterEnds(at: Date, n: number): Date[] {
  const out: Date[] = [];
  let y = at.getUTCFullYear();
  let q = Math.floor(at.getUTCMonth() / 3); // current quarter index; its end is not yet reached
  for (let k = 0; k < n; k += 1) {
    q -= 1;
    if (q < 0) {
      q = 3;
      y -= 1;
    }
    out.push(new Date(Date.UTC(y, q * 3 + 3, 0)));
  }
  return out;
}

/** One fiscal quarter of a common stock: revenue from the seed's market value, margin and growth hashed per quarter. */
function quarter(sb: Sandbox, i: Instrument, end: Date) {
  const f = facts(sb, i);
  const key = `${i.market}:${i.symbol}`;
  const u = (label: string) => unit(sb.config.marketSeed, key, `${label}:${day(end)}`);
  // Net income of the quarter ≈ trailing EPS / 4 × shares, wobbling ±10 % per quarter.
  const netIncome = f
    .epsTtm!.div(4)
    .times(f.shares)
    .times(0.9 + 0.2 * u("ni"));
  const margin = 0.08 + 0.25 * unit(sb.config.marketSeed, key, "margin");
  const revenue = netIncome.div(margin);
  const gross = revenue.times(0.35 + 0.3 * unit(sb.config.marketSeed, key, "gross"));
  const operating = netIncome.times(1.25);
  const assets = revenue.times(4 + 4 * unit(sb.config.marketSeed, key, "assets"));
  const liabilities = assets.times(0.3 + 0.4 * unit(sb.config.marketSeed, key, "leverage"));
  const ocf = netIncome.times(1.1 + 0.3 * u("ocf"));
  const capex = revenue.times(0.04 + 0.06 * u("capex"));
  const eps = netIncome.div(f.shares);
  return {
    end,
    revenue,
    gross,
    operating,
    netIncome,
    eps,
    assets,
    liabilities,
    equity: assets.minus(liabilities),
    cash: assets.times(0.1),
    debt: liabilities.times(0.5),
    ocf,
    capex,
    icf: capex.neg().minus(revenue.times(0.01)),
    fcfin: ocf.times(-0.4),
  };
}
type Quarter = ReturnType<typeof quarter>;

const periodOf = (end: Date) => `Q${Math.floor(end.getUTCMonth() / 3) + 1}`;
const fiscal = (end: Date, annual: boolean) => ({
  fiscal_year: end.getUTCFullYear(),
  fiscal_period: annual ? "FY" : periodOf(end),
  end_date: day(end),
  report_date: day(addDays(end, 30)),
});

/** `count` periods, newest first: quarters, or fiscal years (sum of four quarters, balance sheet at year end). */
function periods(sb: Sandbox, i: Instrument, q: Record<string, string>) {
  const type = oneOf(q.type, ["QUARTERLY", "ANNUAL"], "type") ?? "QUARTERLY";
  const count = countOf(q);
  const now = trading(sb).now();
  if (type === "QUARTERLY") return quarterEnds(now, count).map((e) => ({ annual: false, quarters: [quarter(sb, i, e)] }));
  const ends = quarterEnds(now, 4 * count + 4).filter((e) => e.getUTCMonth() === 11);
  return ends.slice(0, count).map((ye) => ({
    annual: true,
    quarters: quarterEnds(addDays(ye, 1), 4).map((e) => quarter(sb, i, e)),
  }));
}
const sum = (qs: Quarter[], k: keyof Quarter) => qs.reduce((a, x) => a.plus(x[k] as Decimal), new Decimal(0));

const isStock = (i: Instrument) => i.sub_category === "COMMON_STOCK";
const isFund = (i: Instrument) => i.sub_category === "ETF";

/** Dividend dates: quarterly ex-dates on the 15th of Feb/May/Aug/Nov, from a year back to half a year ahead. */
function dividends(sb: Sandbox, i: Instrument, from: Date, to: Date) {
  const per = facts(sb, i).dividendTtm.div(4).toDecimalPlaces(4);
  if (per.isZero()) return [];
  const out = [];
  for (let y = from.getUTCFullYear(); y <= to.getUTCFullYear(); y += 1) {
    for (const m of [1, 4, 7, 10]) {
      const ex = new Date(Date.UTC(y, m, 15));
      if (ex < from || ex > to) continue;
      out.push({
        symbol: i.symbol,
        ex_date: day(ex),
        record_date: day(addDays(ex, 1)),
        pay_date: day(addDays(ex, 14)),
        announce_date: day(addDays(ex, -30)),
        amount: per.toFixed(4),
        currency: i.currency,
        dividend_type: "CASH",
      });
    }
  }
  return out;
}

export function fundamentalsRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  /** Registers a symbol + category endpoint; `of` answers for the instrument. */
  const symbolRoute = (name: Parameters<typeof route>[2], of: (i: Instrument, ctx: OpContext) => Promise<unknown> | unknown) =>
    route(app, sb, name, async (ctx) => of(await instrumentOf(sb, ctx.query), ctx));

  const now = () => trading(sb).now();
  const u = (i: Instrument, label: string) => unit(sb.config.marketSeed, `${i.market}:${i.symbol}`, label);

  symbolRoute("getCompanyProfile", async (i) => {
    const q = await quoteOf(sb, i);
    const f = facts(sb, i);
    return {
      symbol: i.symbol,
      instrument_id: i.instrument_id,
      name: i.name,
      category: i.category,
      exchange_code: i.exchange_code,
      currency: i.currency,
      instrument_type: i.sub_category,
      sector: isFund(i) ? undefined : sectorOf(i.symbol)?.name,
      employees: isFund(i) ? undefined : String(Math.floor(1000 + 200_000 * u(i, "employees"))),
      listing_date: day(new Date(Date.UTC(1980 + Math.floor(40 * u(i, "listed")), Math.floor(12 * u(i, "listed-m")), 1))),
      shares_outstanding: f.shares.toFixed(0),
      market_value: dp(f.shares.times(q.last), 2),
      description: `${i.name} (${i.symbol}), listed on ${i.exchange_code}. Sandbox reference data.`,
      website: `https://www.example.com/${i.symbol.toLowerCase()}`,
    };
  });

  symbolRoute("getAnalystTargetPrice", async (i) => {
    if (!isStock(i)) return { symbol: i.symbol, analyst_count: 0 };
    const base = seedPriceOf(i);
    const mean = base.times(1 + 0.25 * (u(i, "target") - 0.3));
    return {
      symbol: i.symbol,
      currency: i.currency,
      current_price: dp((await quoteOf(sb, i)).last, 2),
      target_mean: dp(mean, 2),
      target_median: dp(mean.times(1.01), 2),
      target_high: dp(mean.times(1.25), 2),
      target_low: dp(mean.times(0.75), 2),
      analyst_count: 8 + Math.floor(30 * u(i, "analysts")),
      updated_date: day(now()),
    };
  });

  symbolRoute("getAnalystRating", (i) => {
    if (!isStock(i)) return { symbol: i.symbol, total: 0 };
    const total = 8 + Math.floor(30 * u(i, "analysts"));
    const w = ["strong_buy", "buy", "hold", "sell", "strong_sell"].map((k) => u(i, `rating:${k}`) * (k.includes("sell") ? 0.3 : 1));
    const sumW = w.reduce((a, b) => a + b, 0);
    const counts = w.map((x) => Math.floor((x / sumW) * total));
    counts[2] += total - counts.reduce((a, b) => a + b, 0);
    const score = (counts[0] * 5 + counts[1] * 4 + counts[2] * 3 + counts[3] * 2 + counts[4]) / total;
    return {
      symbol: i.symbol,
      rating: score >= 4.2 ? "STRONG_BUY" : score >= 3.5 ? "BUY" : score >= 2.5 ? "HOLD" : score >= 1.8 ? "SELL" : "STRONG_SELL",
      strong_buy: counts[0],
      buy: counts[1],
      hold: counts[2],
      sell: counts[3],
      strong_sell: counts[4],
      total,
      updated_date: day(now()),
    };
  });

  // The last four reported quarters (actual EPS) and the next one (consensus estimate), oldest first.
  symbolRoute("getForecastEps", (i) => {
    if (!isStock(i)) return [];
    const ends = quarterEnds(now(), 4).reverse();
    const actual = ends.map((e) => ({ ...fiscal(e, false), eps_actual: dp(quarter(sb, i, e).eps, 4) }));
    const next = new Date(Date.UTC(ends[3].getUTCFullYear(), ends[3].getUTCMonth() + 4, 0));
    return [...actual, { ...fiscal(next, false), eps_forecast: dp(facts(sb, i).epsTtm!.div(4).times(1.03), 4) }];
  });

  symbolRoute("listFilings", (i) => {
    if (i.market !== "US") throw business("UNSUPPORTED_CATEGORY", "Filings are available for US_STOCK only.");
    if (!isStock(i)) return [];
    return quarterEnds(now(), 12).map((e) => ({
      symbol: i.symbol,
      form_type: e.getUTCMonth() === 11 ? "10-K" : "10-Q",
      period_end: day(e),
      filing_date: day(addDays(e, 35)),
      title: `${i.name} ${e.getUTCMonth() === 11 ? "annual" : "quarterly"} report for ${periodOf(e)} ${e.getUTCFullYear()}`,
      url: `https://www.example.com/filings/${i.symbol}/${day(e)}`,
    }));
  });

  // Reports within half a year of today, oldest first: eps_actual once reported, eps_estimate before.
  symbolRoute("listEarningsCalendar", (i) => {
    if (!isStock(i)) return [];
    const at = now();
    const lo = addDays(at, -183);
    const hi = addDays(at, 183);
    const ends = [...quarterEnds(addDays(at, 190), 6)].reverse();
    return ends
      .map((e) => ({ e, report: addDays(e, 30) }))
      .filter(({ report }) => report >= lo && report <= hi)
      .map(({ e, report }) => ({
        symbol: i.symbol,
        ...fiscal(e, false),
        report_date: day(report),
        ...(report <= at ? { eps_actual: dp(quarter(sb, i, e).eps, 4) } : {}),
        eps_estimate: dp(facts(sb, i).epsTtm!.div(4), 4),
      }));
  });

  symbolRoute("listDividendCalendar", (i) => dividends(sb, i, addDays(now(), -183), addDays(now(), 183)));

  // Money flow of the last `count` sessions, split by order size from the daily bars' volume × close.
  symbolRoute("getCapitalFlow", async (i, ctx) => {
    const count = countOf(ctx.query, 5, 5);
    const q = await quoteOf(sb, i);
    const t = trading(sb);
    return barsFor(t, q, "D", count).map((b) => {
      const value = new Decimal(b.volume).times(b.close);
      const split = (k: string) => value.times(0.1 + 0.2 * unit(sb.config.marketSeed, `${i.market}:${i.symbol}`, `${k}:${b.time}`));
      const [li, lo, mi, mo, si, so] = ["li", "lo", "mi", "mo", "si", "so"].map(split);
      return {
        date: b.time.slice(0, 10),
        large_inflow: dp(li, 2),
        large_outflow: dp(lo, 2),
        medium_inflow: dp(mi, 2),
        medium_outflow: dp(mo, 2),
        small_inflow: dp(si, 2),
        small_outflow: dp(so, 2),
        net_inflow: dp(li.plus(mi).plus(si).minus(lo).minus(mo).minus(so), 2),
      };
    });
  });

  /** Ratios of a stock from its last four quarters and its current price (industry comparison, indicators). */
  const ratios = async (i: Instrument) => {
    const qs = quarterEnds(now(), 4).map((e) => quarter(sb, i, e));
    const q = await quoteOf(sb, i);
    const eps = sum(qs, "eps");
    const naps = qs[0].equity.div(facts(sb, i).shares);
    const dps = facts(sb, i).dividendTtm;
    return {
      symbol: i.symbol,
      name: i.name,
      eps_ttm: dp(eps, 4),
      naps: dp(naps, 4),
      dps_ttm: dp(dps, 4),
      roe: dp(sum(qs, "netIncome").div(qs[0].equity), 6),
      debt_to_assets: dp(qs[0].liabilities.div(qs[0].assets), 6),
      net_margin: dp(sum(qs, "netIncome").div(sum(qs, "revenue")), 6),
      div_yield_ttm: dp(dps.div(q.last), 6),
      pe_ttm: dp(q.last.div(eps), 2),
      pb_ratio: dp(q.last.div(naps), 2),
    };
  };

  symbolRoute("getIndustryComparison", async (i, ctx) => {
    const sortBy =
      oneOf(
        ctx.query.sort_by,
        ["EPS_TTM", "NAPS", "DPS_TTM", "ROE", "DEBT_TO_ASSETS", "NET_MARGIN", "DIV_YIELD_TTM", "PE_TTM", "PB_RATIO"],
        "sort_by",
      ) ?? "EPS_TTM";
    const sector = sectorOf(i.symbol);
    if (!isStock(i) || !sector) return { symbol: i.symbol, data: [] };
    const peers = (await instrumentsOf(sb, i.market)).filter((p) => sectorOf(p.symbol)?.id === sector.id).slice(0, 20);
    return { symbol: i.symbol, industry: sector.name, data: sortRows(await Promise.all(peers.map(ratios)), sortBy, "DESC") };
  });

  symbolRoute("getFinancialIndicators", (i, ctx) => {
    if (!isStock(i)) return { symbol: i.symbol, data: [] };
    const shares = facts(sb, i).shares;
    return {
      symbol: i.symbol,
      currency: i.currency,
      data: periods(sb, i, ctx.query).map(({ annual, quarters: qs }) => ({
        ...fiscal(qs[0].end, annual),
        eps: dp(sum(qs, "eps"), 4),
        bvps: dp(qs[0].equity.div(shares), 4),
        roe: dp(sum(qs, "netIncome").div(qs[0].equity), 6),
        gross_margin: dp(sum(qs, "gross").div(sum(qs, "revenue")), 6),
        net_margin: dp(sum(qs, "netIncome").div(sum(qs, "revenue")), 6),
        debt_to_assets: dp(qs[0].liabilities.div(qs[0].assets), 6),
      })),
    };
  });

  /** A statement endpoint: one item per period of a common stock (newest first), [] for anything else. */
  const statementRoute = (name: Parameters<typeof route>[2], fields: (qs: Quarter[]) => Record<string, string>) =>
    symbolRoute(name, (i, ctx) =>
      !isStock(i)
        ? []
        : periods(sb, i, ctx.query).map(({ annual, quarters }) => ({
            symbol: i.symbol,
            currency: i.currency,
            ...fiscal(quarters[0].end, annual),
            ...fields(quarters),
          })),
    );

  statementRoute("getIncomeStatements", (qs) => ({
    total_revenue: dp(sum(qs, "revenue"), 0),
    cost_of_revenue: dp(sum(qs, "revenue").minus(sum(qs, "gross")), 0),
    gross_profit: dp(sum(qs, "gross"), 0),
    operating_income: dp(sum(qs, "operating"), 0),
    net_income: dp(sum(qs, "netIncome"), 0),
    eps_basic: dp(sum(qs, "eps"), 4),
    eps_diluted: dp(sum(qs, "eps").times(0.99), 4),
  }));

  statementRoute("getCashFlows", (qs) => ({
    operating_cash_flow: dp(sum(qs, "ocf"), 0),
    investing_cash_flow: dp(sum(qs, "icf"), 0),
    financing_cash_flow: dp(sum(qs, "fcfin"), 0),
    capital_expenditure: dp(sum(qs, "capex").neg(), 0),
    free_cash_flow: dp(sum(qs, "ocf").minus(sum(qs, "capex")), 0),
  }));

  statementRoute("getBalanceSheets", (qs) => ({
    total_assets: dp(qs[0].assets, 0),
    total_liabilities: dp(qs[0].liabilities, 0),
    total_equity: dp(qs[0].equity, 0),
    cash_and_equivalents: dp(qs[0].cash, 0),
    total_debt: dp(qs[0].debt, 0),
  }));

  // The next report of a stock (the earnings calendar's first future entry).
  symbolRoute("getFinancialAlert", (i) => {
    if (!isStock(i)) return { symbol: i.symbol };
    const at = now();
    const next = quarterEnds(addDays(at, 120), 2).find((e) => addDays(e, 30) > at)!;
    return {
      symbol: i.symbol,
      fiscal_year: next.getUTCFullYear(),
      fiscal_period: periodOf(next),
      next_report_date: day(addDays(next, 30)),
      eps_estimate: dp(facts(sb, i).epsTtm!.div(4), 4),
    };
  });

  // Fund data (ETFs).
  symbolRoute("getFundBrief", async (i) => {
    if (!isFund(i)) return {};
    const q = await quoteOf(sb, i);
    return {
      symbol: i.symbol,
      name: i.name,
      fund_type: "ETF",
      currency: i.currency,
      exchange_code: i.exchange_code,
      inception_date: day(new Date(Date.UTC(1993 + Math.floor(25 * u(i, "inception")), 0, 29))),
      expense_ratio: dp(0.0003 + 0.006 * u(i, "expense"), 4),
      net_assets: dp(facts(sb, i).shares.times(q.last), 0),
      nav: dp(q.last.times(0.9995), 4),
      issuer: `${i.name.split(" ")[0]} Funds`,
    };
  });

  symbolRoute("getFundPerformance", async (i) => {
    if (!isFund(i)) return {};
    const q = await quoteOf(sb, i);
    const ret = (days: number) => dp(q.last.div(closeDaysAgo(sb, q, days)).minus(1), 6);
    return {
      symbol: i.symbol,
      as_of_date: day(now()),
      return_1m: ret(21),
      return_3m: ret(63),
      return_6m: ret(126),
      return_1y: ret(252),
    };
  });

  // Net value per session from the daily closes, newest first, up to last_date.
  symbolRoute("getFundNetValue", async (i, ctx) => {
    const lastDate = parseDate(ctx.query.last_date, "last_date");
    const count = countOf(ctx.query);
    if (!isFund(i)) return [];
    const q = await quoteOf(sb, i);
    const t = trading(sb);
    const daily = barsFor(t, q, "D", 400).filter((b) => !lastDate || b.time.slice(0, 10) <= lastDate);
    return daily.slice(0, count).map((b, k) => {
      const prev = daily[k + 1]?.close ?? b.open;
      return { date: b.time.slice(0, 10), nav: dp(b.close, 4), change_ratio: dp(new Decimal(b.close).div(prev).minus(1), 6) };
    });
  });

  symbolRoute("getFundHoldings", async (i) => {
    if (!isFund(i)) return [];
    const stocks = (await instrumentsOf(sb, i.market)).filter(isStock);
    const weights = stocks.map((s) => ({ s, w: u(i, `hold:${s.symbol}`) }));
    const top = weights.sort((a, b) => b.w - a.w || a.s.symbol.localeCompare(b.s.symbol)).slice(0, 10);
    const total = top.reduce((a, x) => a + x.w, 0) * 2.5; // the top ten hold 40 % of the fund
    return top.map(({ s, w }) => ({ symbol: s.symbol, name: s.name, weight: dp(w / total, 6) }));
  });

  symbolRoute("getFundDividends", (i, ctx) => {
    if (!isFund(i)) return ctx.style === "legacy" ? [] : { data: [] };
    const all = dividends(sb, i, addDays(now(), -3 * 365), now()).reverse();
    if (ctx.style === "legacy") {
      const index = ctx.query.page_index ? Number(ctx.query.page_index) : 1;
      if (!Number.isInteger(index) || index < 1) throw illegal("page_index must be an integer from 1.");
      const size = pageSize(ctx.query, COUNT_MAX);
      return all.slice((index - 1) * size, index * size);
    }
    return list(ctx, all);
  });

  symbolRoute("getFundRating", (i) =>
    !isFund(i)
      ? []
      : [
          {
            symbol: i.symbol,
            rating_agency: "Sandbox Research",
            rating: String(1 + Math.floor(5 * u(i, "rating"))),
            rating_date: day(now()),
          },
        ],
  );

  symbolRoute("getFundSplits", (i) =>
    !isFund(i) || u(i, "split") > 0.3
      ? []
      : [{ symbol: i.symbol, split_date: day(addDays(now(), -200 - Math.floor(600 * u(i, "split-at")))), from_ratio: "1", to_ratio: "2" }],
  );

  symbolRoute("getFundFiles", (i) =>
    !isFund(i)
      ? []
      : ["PROSPECTUS", "ANNUAL_REPORT", "FACT_SHEET"].map((type, k) => ({
          symbol: i.symbol,
          file_type: type,
          title: `${i.name} ${type.toLowerCase().replace("_", " ")}`,
          publish_date: day(addDays(now(), -30 - 90 * k)),
          url: `https://www.example.com/funds/${i.symbol}/${type.toLowerCase()}.pdf`,
        })),
  );

  symbolRoute("getFundAllocation", (i) => {
    if (!isFund(i)) return [];
    const bond = /Treasury|Bond/i.test(i.name);
    const gold = /Gold/i.test(i.name);
    const main = bond ? "BOND" : gold ? "COMMODITY" : "STOCK";
    const cash = 0.002 + 0.02 * u(i, "cash");
    return [
      { asset_type: main, ratio: dp(1 - cash, 6) },
      { asset_type: "CASH", ratio: dp(cash, 6) },
    ];
  });

  // Corporate actions of the instrument master (the Broker API's detail call serves the same events one by one).
  route(app, sb, "listMarketCorporateActions", async ({ query: q, style }) => {
    const ids = (q.instrument_ids ?? "").split(",").filter(Boolean);
    const types = (q.event_types ?? "").split(",").filter(Boolean);
    const start = parseDate(q.start_date, "start_date");
    const end = parseDate(q.end_date, "end_date");
    const size = pageSize(q);
    const pageNumber = q.page_number ? Number(q.page_number) : 1;
    if (!Number.isInteger(pageNumber) || pageNumber < 1) throw illegal("page_number must be an integer from 1.");
    const { rows } = await sb.engine.query<{ detail: Record<string, string> }>(
      "SELECT detail FROM sandbox.corporate_actions ORDER BY detail->>'ex_date', event_id",
    );
    const hits = rows
      .map((r) => r.detail)
      .filter(
        (d) =>
          (!ids.length || ids.includes(d.instrument_id)) &&
          (!types.length || types.includes(d.event_type)) &&
          (!start || d.ex_date >= start) &&
          (!end || d.ex_date <= end),
      )
      .slice((pageNumber - 1) * size, pageNumber * size);
    return style === "legacy" ? hits : { data: hits };
  });
}
