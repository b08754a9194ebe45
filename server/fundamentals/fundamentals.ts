import "server-only";
import { broker, type BrokerClient } from "@/server/broker";
import type { Fact } from "@/server/broker/schemas/fundamentals";
import type { Instrument } from "@/server/broker/schemas/instruments";
import { STOCK_CATEGORY, type InstrumentMarket } from "@/lib/instruments";
import { tabsFor, type FactSection, type InstrumentTab, type TabData } from "@/lib/schemas/instrument-tabs";
import { createInstrumentMaster, instrumentMaster } from "./instrument-master";
import { section, statement } from "./present";
import { SharedCache } from "@/server/screeners/cache";

/**
 * The instrument page's tabs: reference data read through the Broker API client and kept for its natural lifetime,
 * so that a symbol open on many desks costs the upstream one call per lifetime.
 */
type Client = Pick<
  BrokerClient,
  | "getCompanyProfile"
  | "getAnalystRating"
  | "getAnalystTargetPrice"
  | "listEarningsCalendar"
  | "listDividendCalendar"
  | "getIncomeStatements"
  | "getCashFlows"
  | "getBalanceSheets"
  | "getFundBrief"
  | "getFundHoldings"
  | "getFundPerformance"
  | "listMarketCorporateActions"
  | "getStockLocate"
>;

const MINUTE = 60_000;
/** How long each tab's answer is kept: what changes within a day is kept minutes, what changes with a filing hours. */
export const TAB_TTL_MS: Record<InstrumentTab, number> = {
  profile: 6 * 60 * MINUTE,
  statements: 6 * 60 * MINUTE,
  fund: 6 * 60 * MINUTE,
  calendars: 60 * MINUTE,
  "corporate-actions": 60 * MINUTE,
  analyst: 5 * MINUTE,
  // Read from the instrument master's own five-minute entry.
  margin: 0,
  // The locate moves with every short fill.
  shortability: MINUTE,
};

export function createFundamentals({
  client = broker,
  master = instrumentMaster(),
  now,
}: { client?: () => Client; master?: ReturnType<typeof createInstrumentMaster>; now?: () => number } = {}) {
  const caches = Object.fromEntries(
    Object.entries(TAB_TTL_MS).map(([tab, ttlMs]) => [tab, new SharedCache<FactSection[]>(ttlMs, now)]),
  ) as Record<InstrumentTab, SharedCache<FactSection[]>>;

  async function read(tab: InstrumentTab, i: Instrument, market: InstrumentMarket): Promise<FactSection[]> {
    const q = { symbol: i.symbol, category: STOCK_CATEGORY[market] };
    const c = client();
    const ccy = i.currency ?? undefined;
    switch (tab) {
      case "profile":
        return [section("Company profile", await c.getCompanyProfile(q), { empty: "The upstream has no profile of this company." })];
      case "analyst": {
        const [rating, target] = await Promise.all([c.getAnalystRating(q), c.getAnalystTargetPrice(q)]);
        return [
          section("Analyst rating", rating, { empty: "No analyst rates this instrument." }),
          section("Analyst target price", target, { empty: "No analyst target price.", currency: ccy }),
        ];
      }
      case "calendars": {
        const [earnings, dividends] = await Promise.all([c.listEarningsCalendar(q), c.listDividendCalendar(q)]);
        return [
          section("Earnings calendar", earnings, {
            empty: "No earnings report in the half year either side of today.",
            layout: "table",
            currency: ccy,
          }),
          section("Dividend calendar", dividends, {
            empty: "No dividend in the half year either side of today.",
            layout: "table",
            currency: ccy,
          }),
        ];
      }
      case "statements": {
        const s = { ...q, type: "QUARTERLY" as const, count: 4 };
        const [income, cash, balance] = await Promise.all([c.getIncomeStatements(s), c.getCashFlows(s), c.getBalanceSheets(s)]);
        return [
          statement("Income statement", income, "No income statement."),
          statement("Cash flow", cash, "No cash flow statement."),
          statement("Balance sheet", balance, "No balance sheet."),
        ];
      }
      case "fund": {
        const [brief, performance, holdings] = await Promise.all([c.getFundBrief(q), c.getFundPerformance(q), c.getFundHoldings(q)]);
        return [
          section("Fund brief", brief, { empty: "No fund brief.", currency: ccy }),
          section("Performance", performance, { empty: "No performance figures.", layout: "table" }),
          section("Top holdings", holdings, { empty: "No holdings reported.", layout: "table" }),
        ];
      }
      case "corporate-actions": {
        const actions = await c.listMarketCorporateActions({ instrument_ids: i.instrument_id, page_size: 50 });
        return [
          section("Corporate actions", actions.map(describeAction), { empty: "No corporate action of this instrument.", layout: "table" }),
        ];
      }
      case "margin":
        return [marginSection(i)];
      case "shortability": {
        const locate = market === "US" ? await c.getStockLocate({ symbol: i.symbol, market }) : undefined;
        return [
          section(
            "Shortability",
            [{ shortable: i.shortable ?? null, easy_to_borrow: i.easy_to_borrow ?? null, marginable: i.marginable ?? null }],
            { empty: "" },
          ),
          section("Locate", locate ? [locate as unknown as Fact] : [], {
            empty: market === "US" ? "No locate." : "Locates are for US stocks.",
            layout: "record",
          }),
        ];
      }
    }
  }

  return {
    /** One tab of an instrument, from the cache while it lives. Tabs the instrument does not have are refused. */
    async tab(market: InstrumentMarket, symbol: string, tab: InstrumentTab): Promise<TabData> {
      const i = await master.get(market, symbol);
      if (!tabsFor(i.sub_category === "ETF").includes(tab)) {
        return { tab, sections: [{ title: "", columns: [], rows: [], layout: "table", empty: "Not offered for this instrument." }] };
      }
      const sections =
        tab === "margin" ? await read(tab, i, market) : await caches[tab].get(`${market}:${i.symbol}`, () => read(tab, i, market));
      return { tab, sections };
    },
  };
}

/** A corporate action as one row: its option's description beside its dates. */
function describeAction(f: Fact): Fact {
  const to = Array.isArray(f.to) ? (f.to as { description?: unknown; default_option_flag?: unknown }[]) : [];
  const chosen = to.find((o) => o.default_option_flag === true || o.default_option_flag === "Y") ?? to[0];
  const { event_id, event_type, ex_date, record_date, payment_date, ...rest } = f;
  return {
    event_id,
    event_type,
    ex_date,
    record_date,
    payment_date,
    description: typeof chosen?.description === "string" ? chosen.description : null,
    ...rest,
  };
}

const PCT = (v: string | undefined) => v ?? null;
function marginSection(i: Instrument): FactSection {
  const rows = [
    ["Initial (Reg T)", i.margin_requirement_long, i.margin_requirement_short],
    ["Intraday", i.intraday_margin_long, i.intraday_margin_short],
    ["Maintenance", i.maintenance_margin_long, i.maintenance_margin_short],
  ].map(([kind, long, short]) => ({ requirement: kind ?? null, long: PCT(long), short: PCT(short) }));
  return {
    title: i.marginable === false ? "Margin ratios (not marginable)" : "Margin ratios",
    columns: [
      { key: "requirement", label: "Requirement", numeric: false, money: false },
      { key: "long", label: "Long", numeric: true, money: false, percent: true },
      { key: "short", label: "Short", numeric: true, money: false, percent: true },
    ],
    rows,
    layout: "table",
    empty: "No margin ratios.",
  };
}

let shared: ReturnType<typeof createFundamentals> | undefined;
/** The process's fundamentals, sharing the instrument master. */
export const fundamentals = () => (shared ??= createFundamentals());
