import { TradingSdkClient, type Res, type Style } from "./trading-api-client";

/**
 * The market-data half of the official SDKs for the contract tests, written from their request classes: Python
 * `webull/data/quotes/screener.py` + `data/request/screener/*.py`, `data/quotes/fundamentals.py` +
 * `data/request/get_*_request.py`, `get_company_profile_request.py`, `get_analyst_*_request.py`,
 * `get_corp_action_request.py` (x-version v2), and the Java `DataClient` (x-version v3 resource paths). It signs with
 * the tests' own signer (trading-api-client.ts, facts §1), never the app's code.
 */
export const MD_PATHS = {
  get_gainers_losers: ["/openapi/market-data/screener/gainers-losers", "/market-data/screeners/gainers-losers/list"],
  get_most_active: ["/openapi/market-data/screener/top-active", "/market-data/screeners/top-actives/list"],
  get_market_sectors: ["/openapi/market-data/screener/market-sectors", "/market-data/screeners/market-sectors/list"],
  get_market_sectors_detail: ["/openapi/market-data/screener/market-sectors-detail", "/market-data/screeners/market-sectors-detail/list"],
  get_high_dividend: ["/openapi/market-data/screener/high-dividend", "/market-data/screeners/high-dividend-ranks/list"],
  get_52whl: ["/openapi/market-data/screener/52whl", "/market-data/screeners/week52-high-low/list"],
  get_company_profile: ["/openapi/instrument/company/profile", "/market-data/fundamentals/company-profiles/get"],
  get_analyst_target_price: ["/openapi/instrument/analyst/target-price", "/market-data/fundamentals/analysis/target-prices/get"],
  get_analyst_rating: ["/openapi/instrument/analyst/rating", "/market-data/fundamentals/analysis/ratings/get"],
  get_forecast_eps: ["/openapi/fundamentals/stock/forecast-eps", "/market-data/fundamentals/forecast-eps/get"],
  get_sec_filings: ["/openapi/fundamentals/stock/filings", "/market-data/fundamentals/filings/list"],
  get_earnings_calendar: ["/openapi/fundamentals/stock/earnings-calendar", "/market-data/fundamentals/earnings-calendars/list"],
  get_dividend_calendar: ["/openapi/fundamentals/stock/dividend-calendar", "/market-data/fundamentals/dividend-calendars/list"],
  get_capital_flow: ["/openapi/fundamentals/stock/capital-flow", "/market-data/fundamentals/capital-flows/get"],
  get_industry_comparison: ["/openapi/fundamentals/stock/industry-comparison", "/market-data/fundamentals/industry-comparisons/get"],
  get_financials_indicators: ["/openapi/fundamentals/financial/indicators", "/market-data/fundamentals/indicators/get"],
  get_financials_income: ["/openapi/fundamentals/financial/income", "/market-data/fundamentals/income-statements/get"],
  get_financials_cashflow: ["/openapi/fundamentals/financial/cash-flow", "/market-data/fundamentals/cash-flows/get"],
  get_financials_balance_sheet: ["/openapi/fundamentals/financial/balance-sheet", "/market-data/fundamentals/balance-sheets/get"],
  get_financials_alert: ["/openapi/fundamentals/financial/alert", "/market-data/fundamentals/financial-alerts/get"],
  get_fund_brief: ["/openapi/fundamentals/fund/brief", "/market-data/fundamentals/fund-brief/get"],
  get_fund_performance: ["/openapi/fundamentals/fund/performance", "/market-data/fundamentals/fund-performances/get"],
  get_fund_net_value: ["/openapi/fundamentals/fund/net-value", "/market-data/fundamentals/fund-net-values/get"],
  get_fund_holdings: ["/openapi/fundamentals/fund/holdings", "/market-data/fundamentals/fund-holdings/get"],
  get_fund_dividends: ["/openapi/fundamentals/fund/dividends", "/market-data/fundamentals/fund-dividends/get"],
  get_fund_rating: ["/openapi/fundamentals/fund/rating", "/market-data/fundamentals/fund-ratings/get"],
  get_fund_splits: ["/openapi/fundamentals/fund/splits", "/market-data/fundamentals/fund-splits/get"],
  get_fund_files: ["/openapi/fundamentals/fund/files", "/market-data/fundamentals/fund-files/get"],
  get_fund_allocation: ["/openapi/fundamentals/fund/allocation", "/market-data/fundamentals/fund-allocations/get"],
  get_corp_action: ["/instrument/corp-action", "/market-data/instruments/corporate-actions/list"],
  // The SDK method the snapshot comes from (`market_data.get_snapshot`), to check screener rows against it.
  get_snapshot: ["/openapi/market-data/stock/snapshot", "/market-data/stocks/snapshots/list"],
} as const;
export type MdMethod = keyof typeof MD_PATHS;

/** The SDK methods that take (symbol, category) and nothing else required: every fundamentals endpoint. */
export const SYMBOL_METHODS = Object.keys(MD_PATHS).filter(
  (m) => !/^get_(gainers|most|market|high|52|corp|snapshot)/.test(m),
) as MdMethod[];

export class MarketDataSdkClient {
  readonly http: TradingSdkClient;
  constructor(
    baseUrl: string,
    appKey: string,
    appSecret: string,
    readonly style: Style,
    algorithm: "HMAC-SHA1" | "HMAC-SHA256",
    token?: string,
  ) {
    this.http = new TradingSdkClient(baseUrl, appKey, appSecret, style, algorithm);
    this.http.token = token;
  }

  /** One GET of an SDK method; query values left out when absent, as the request classes' setters do. */
  call(method: MdMethod, query: Record<string, unknown> = {}): Promise<Res> {
    const [legacy, resource] = MD_PATHS[method];
    return this.http.request("GET", this.style === "legacy" ? legacy : resource, query);
  }

  get_gainers_losers = (q: {
    rank_type: string;
    category?: string;
    sort_by?: string;
    direction?: string;
    page_index?: number;
    page_size?: number;
  }) => this.call("get_gainers_losers", { category: "US_STOCK", sort_by: "CHANGE_RATIO", ...q });
  get_most_active = (
    q: { category?: string; rank_type?: string; sort_by?: string; direction?: string; page_index?: number; page_size?: number } = {},
  ) => this.call("get_most_active", { category: "US_STOCK", ...q });
  get_snapshot = (symbols: string[], category = "US_STOCK") => this.call("get_snapshot", { symbols: symbols.join(","), category });
}
