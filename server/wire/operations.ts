import "server-only";

/**
 * Every Broker API operation, with its path in both styles. The client builds URLs from this table and the
 * sandbox registers its routes from it, so the two always agree. Resource-style paths are canonical (x-version v3);
 * the legacy `/openapi/broker/...` paths are served as aliases (x-version v2).
 * Paths marked "chosen" are not published by the upstream; docs/sandbox-api.md lists them.
 */
export type RateGroup =
  "token" | "account" | "instrument" | "assets" | "order-write" | "order-query" | "funding" | "journal" | "master-data" | "market-data";

export interface Operation {
  method: "GET" | "POST";
  resource: string;
  legacy: string;
  /** Extra legacy paths the upstream has used for the same operation. */
  aliases?: readonly string[];
  group: RateGroup;
}

/** A token or 2FA operation: the same path in both styles. */
const tokenOperation = (method: Operation["method"], path: string): Operation => ({ method, resource: path, legacy: path, group: "token" });

export const OPERATIONS = {
  // Token / 2FA
  getConfig: tokenOperation("GET", "/openapi/config"),
  createToken: tokenOperation("POST", "/openapi/auth/token/create"),
  checkToken: tokenOperation("POST", "/openapi/auth/token/check"),
  refreshToken: tokenOperation("POST", "/openapi/auth/token/refresh"),

  // Account
  createVirtualAccount: {
    method: "POST",
    resource: "/broker/accounts/virtual-accounts/create",
    legacy: "/openapi/broker/account/nd/create",
    group: "account",
  },
  updateVirtualAccount: {
    method: "POST",
    resource: "/broker/accounts/virtual-accounts/update",
    legacy: "/openapi/broker/account/nd/update",
    group: "account",
  },
  getVirtualAccount: {
    method: "GET",
    resource: "/broker/accounts/virtual-accounts/get",
    legacy: "/openapi/broker/account/nd/detail",
    group: "account",
  },
  listVirtualAccounts: {
    method: "GET",
    resource: "/broker/accounts/virtual-accounts/list",
    legacy: "/openapi/broker/account/nd/list",
    group: "account",
  },

  // Instrument
  listStockInstruments: {
    method: "GET",
    resource: "/broker/instruments/stocks/profiles/list",
    legacy: "/openapi/broker/instrument/stock/list",
    group: "instrument",
  },
  getStockLocate: {
    method: "GET",
    resource: "/broker/instruments/stock-locates/get",
    legacy: "/openapi/broker/instrument/locate/detail",
    group: "instrument",
  },
  getCorporateAction: {
    method: "GET",
    resource: "/broker/instruments/stocks/corporate-actions/get",
    legacy: "/openapi/broker/instrument/corporate-actions/detail",
    group: "instrument",
  },
  // chosen legacy path
  listOptionContracts: {
    method: "GET",
    resource: "/broker/instruments/stocks/options/contracts/list",
    legacy: "/openapi/broker/instrument/option/contracts/list",
    group: "instrument",
  },

  // Activities
  listAccountActivities: {
    method: "GET",
    resource: "/broker/activities/cash-activities/list",
    legacy: "/openapi/broker/activity/list",
    aliases: ["/openapi/broker/activities/cash"],
    group: "account",
  },

  // Assets
  getBalance: { method: "GET", resource: "/broker/assets/balances/get", legacy: "/openapi/broker/assets/balance", group: "assets" },
  listPositions: { method: "GET", resource: "/broker/assets/positions/list", legacy: "/openapi/broker/assets/positions", group: "assets" },

  // Orders
  previewOrder: { method: "POST", resource: "/broker/orders/preview", legacy: "/openapi/broker/trade/order/preview", group: "order-write" },
  placeOrder: { method: "POST", resource: "/broker/orders/place", legacy: "/openapi/broker/trade/order/place", group: "order-write" },
  replaceOrder: { method: "POST", resource: "/broker/orders/replace", legacy: "/openapi/broker/trade/order/replace", group: "order-write" },
  cancelOrder: { method: "POST", resource: "/broker/orders/cancel", legacy: "/openapi/broker/trade/order/cancel", group: "order-write" },
  getOrder: { method: "GET", resource: "/broker/orders/get", legacy: "/openapi/broker/trade/order/detail", group: "order-query" },
  listOrderHistory: {
    method: "GET",
    resource: "/broker/orders/historical-orders/list",
    legacy: "/openapi/broker/trade/order/history",
    group: "order-query",
  },
  listOpenOrders: {
    method: "GET",
    resource: "/broker/orders/open-orders/list",
    legacy: "/openapi/broker/trade/order/open",
    group: "order-query",
  },
  // chosen paths
  listOrderExecutions: {
    method: "GET",
    resource: "/broker/orders/executions/list",
    legacy: "/openapi/broker/trade/order/executions",
    group: "order-query",
  },

  // Funding
  getFxRate: { method: "GET", resource: "/broker/funding/fx-rates/get", legacy: "/openapi/broker/funding/fx/rate", group: "funding" },
  createFxRequest: {
    method: "POST",
    resource: "/broker/funding/fx-exchanges/create",
    legacy: "/openapi/broker/funding/fx/create",
    group: "funding",
  },
  getFxRequest: {
    method: "GET",
    resource: "/broker/funding/fx-exchanges/get",
    legacy: "/openapi/broker/funding/fx/detail",
    group: "funding",
  },
  createInstantExchange: {
    method: "POST",
    resource: "/broker/funding/instant-exchanges/create",
    legacy: "/openapi/broker/funding/fx/instant/create",
    group: "funding",
  },
  getInstantExchange: {
    method: "GET",
    resource: "/broker/funding/instant-exchanges/get",
    legacy: "/openapi/broker/funding/fx/instant/detail",
    group: "funding",
  },
  createInstantFunding: {
    method: "POST",
    resource: "/broker/funding/instant-funding/create",
    legacy: "/openapi/broker/funding/instant/create",
    group: "funding",
  },
  getInstantFunding: {
    method: "GET",
    resource: "/broker/funding/instant-funding/get",
    legacy: "/openapi/broker/funding/instant/detail",
    group: "funding",
  },

  // Journals
  createCashJournal: {
    method: "POST",
    resource: "/broker/journals/cash-journals/create",
    legacy: "/openapi/broker/journal/cash/create",
    group: "journal",
  },
  getCashJournal: {
    method: "GET",
    resource: "/broker/journals/cash-journals/get",
    legacy: "/openapi/broker/journal/cash/detail",
    group: "journal",
  },
  createPositionJournal: {
    method: "POST",
    resource: "/broker/journals/position-journals/create",
    legacy: "/openapi/broker/journal/position/create",
    group: "journal",
  },
  getPositionJournal: {
    method: "GET",
    resource: "/broker/journals/position-journals/get",
    legacy: "/openapi/broker/journal/position/detail",
    group: "journal",
  },

  // Master data
  listTradeCalendar: {
    method: "GET",
    resource: "/broker/master-data/trading-calendars/list",
    legacy: "/openapi/broker/master-data/trade-calendar",
    group: "master-data",
  },

  // Market data (facts §4.3): the legacy paths are the SDKs' (x-version v2); resource paths from the facts where they
  // give one (snapshots, bars, depths, ticks), else chosen. The sandbox answers them from its simulated market. The
  // upstream's resource-style bars call is a POST; the sandbox also answers GET there, which this table uses.
  getStockSnapshot: {
    method: "GET",
    resource: "/market-data/stocks/snapshots/list",
    legacy: "/openapi/market-data/stock/snapshot",
    aliases: ["/market-data/snapshot"],
    group: "market-data",
  },
  getStockQuotes: {
    method: "GET",
    resource: "/market-data/stocks/depths/list",
    legacy: "/openapi/market-data/stock/quotes",
    group: "market-data",
  },
  listStockTicks: {
    method: "GET",
    resource: "/market-data/stocks/ticks/list",
    legacy: "/openapi/market-data/stock/tick",
    aliases: ["/market-data/tick"],
    group: "market-data",
  },
  listStockBars: {
    method: "GET",
    resource: "/market-data/stocks/bars/list",
    legacy: "/openapi/market-data/stock/bars",
    group: "market-data",
  },
  // chosen resource paths below
  listStockBatchBars: {
    method: "POST",
    resource: "/market-data/stocks/batch-bars/list",
    legacy: "/openapi/market-data/stock/batch-bars",
    aliases: ["/market-data/batch-bars"],
    group: "market-data",
  },
  listStockFootprints: {
    method: "GET",
    resource: "/market-data/stocks/footprints/list",
    legacy: "/openapi/market-data/stock/footprint",
    group: "market-data",
  },
  getStockNoiiSnapshot: {
    method: "GET",
    resource: "/market-data/stocks/noii/snapshots/get",
    legacy: "/openapi/market-data/stock/noii/snapshot",
    group: "market-data",
  },
  listStockNoiiBars: {
    method: "GET",
    resource: "/market-data/stocks/noii/bars/list",
    legacy: "/openapi/market-data/stock/noii/bars",
    group: "market-data",
  },
  getOptionSnapshot: {
    method: "GET",
    resource: "/market-data/options/snapshots/list",
    legacy: "/openapi/market-data/option/snapshot",
    group: "market-data",
  },
  listOptionBars: {
    method: "GET",
    resource: "/market-data/options/bars/list",
    legacy: "/openapi/market-data/option/bars",
    group: "market-data",
  },
  listOptionTicks: {
    method: "GET",
    resource: "/market-data/options/ticks/list",
    legacy: "/openapi/market-data/option/tick",
    group: "market-data",
  },

  // Screeners (Python DataClient `screener.*`, `data/request/screener/*.py`, x-version v2; Java DataClient v3 paths).
  // Top Active replaced most-active in name and URL: the old URL is not served (404 NOT_FOUND).
  // Market Sectors Detail has no v3 path in the SDKs: its resource path is chosen.
  getGainersLosers: {
    method: "GET",
    resource: "/market-data/screeners/gainers-losers/list",
    legacy: "/openapi/market-data/screener/gainers-losers",
    group: "market-data",
  },
  getTopActive: {
    method: "GET",
    resource: "/market-data/screeners/top-actives/list",
    legacy: "/openapi/market-data/screener/top-active",
    group: "market-data",
  },
  listMarketSectors: {
    method: "GET",
    resource: "/market-data/screeners/market-sectors/list",
    legacy: "/openapi/market-data/screener/market-sectors",
    group: "market-data",
  },
  getMarketSectorDetail: {
    method: "GET",
    resource: "/market-data/screeners/market-sectors-detail/list",
    legacy: "/openapi/market-data/screener/market-sectors-detail",
    group: "market-data",
  },
  getHighDividend: {
    method: "GET",
    resource: "/market-data/screeners/high-dividend-ranks/list",
    legacy: "/openapi/market-data/screener/high-dividend",
    group: "market-data",
  },
  get52WeekHighLow: {
    method: "GET",
    resource: "/market-data/screeners/week52-high-low/list",
    legacy: "/openapi/market-data/screener/52whl",
    group: "market-data",
  },

  // Fundamentals (Python `fundamentals.*` and `instrument.get_company_profile / get_analyst_*`, v2; Java DataClient v3).
  // Company profile and analyst data sit under /openapi/instrument/ on v2 but belong to the Market Data API.
  getCompanyProfile: {
    method: "GET",
    resource: "/market-data/fundamentals/company-profiles/get",
    legacy: "/openapi/instrument/company/profile",
    group: "market-data",
  },
  getAnalystTargetPrice: {
    method: "GET",
    resource: "/market-data/fundamentals/analysis/target-prices/get",
    legacy: "/openapi/instrument/analyst/target-price",
    group: "market-data",
  },
  getAnalystRating: {
    method: "GET",
    resource: "/market-data/fundamentals/analysis/ratings/get",
    legacy: "/openapi/instrument/analyst/rating",
    group: "market-data",
  },
  getForecastEps: {
    method: "GET",
    resource: "/market-data/fundamentals/forecast-eps/get",
    legacy: "/openapi/fundamentals/stock/forecast-eps",
    group: "market-data",
  },
  listFilings: {
    method: "GET",
    resource: "/market-data/fundamentals/filings/list",
    legacy: "/openapi/fundamentals/stock/filings",
    group: "market-data",
  },
  listEarningsCalendar: {
    method: "GET",
    resource: "/market-data/fundamentals/earnings-calendars/list",
    legacy: "/openapi/fundamentals/stock/earnings-calendar",
    group: "market-data",
  },
  listDividendCalendar: {
    method: "GET",
    resource: "/market-data/fundamentals/dividend-calendars/list",
    legacy: "/openapi/fundamentals/stock/dividend-calendar",
    group: "market-data",
  },
  getCapitalFlow: {
    method: "GET",
    resource: "/market-data/fundamentals/capital-flows/get",
    legacy: "/openapi/fundamentals/stock/capital-flow",
    group: "market-data",
  },
  getIndustryComparison: {
    method: "GET",
    resource: "/market-data/fundamentals/industry-comparisons/get",
    legacy: "/openapi/fundamentals/stock/industry-comparison",
    group: "market-data",
  },
  getFinancialIndicators: {
    method: "GET",
    resource: "/market-data/fundamentals/indicators/get",
    legacy: "/openapi/fundamentals/financial/indicators",
    group: "market-data",
  },
  getIncomeStatements: {
    method: "GET",
    resource: "/market-data/fundamentals/income-statements/get",
    legacy: "/openapi/fundamentals/financial/income",
    group: "market-data",
  },
  getCashFlows: {
    method: "GET",
    resource: "/market-data/fundamentals/cash-flows/get",
    legacy: "/openapi/fundamentals/financial/cash-flow",
    group: "market-data",
  },
  getBalanceSheets: {
    method: "GET",
    resource: "/market-data/fundamentals/balance-sheets/get",
    legacy: "/openapi/fundamentals/financial/balance-sheet",
    group: "market-data",
  },
  getFinancialAlert: {
    method: "GET",
    resource: "/market-data/fundamentals/financial-alerts/get",
    legacy: "/openapi/fundamentals/financial/alert",
    group: "market-data",
  },
  getFundBrief: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-brief/get",
    legacy: "/openapi/fundamentals/fund/brief",
    group: "market-data",
  },
  getFundPerformance: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-performances/get",
    legacy: "/openapi/fundamentals/fund/performance",
    group: "market-data",
  },
  getFundNetValue: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-net-values/get",
    legacy: "/openapi/fundamentals/fund/net-value",
    group: "market-data",
  },
  getFundHoldings: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-holdings/get",
    legacy: "/openapi/fundamentals/fund/holdings",
    group: "market-data",
  },
  getFundDividends: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-dividends/get",
    legacy: "/openapi/fundamentals/fund/dividends",
    group: "market-data",
  },
  getFundRating: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-ratings/get",
    legacy: "/openapi/fundamentals/fund/rating",
    group: "market-data",
  },
  getFundSplits: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-splits/get",
    legacy: "/openapi/fundamentals/fund/splits",
    group: "market-data",
  },
  getFundFiles: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-files/get",
    legacy: "/openapi/fundamentals/fund/files",
    group: "market-data",
  },
  getFundAllocation: {
    method: "GET",
    resource: "/market-data/fundamentals/fund-allocations/get",
    legacy: "/openapi/fundamentals/fund/allocation",
    group: "market-data",
  },

  // Corporate actions of the market-data client (Python `instrument.get_corp_action`, v1 path; resource path chosen).
  listMarketCorporateActions: {
    method: "GET",
    resource: "/market-data/instruments/corporate-actions/list",
    legacy: "/instrument/corp-action",
    group: "market-data",
  },

  // Futures reference data (Market Data API's instrument calls). Legacy paths: Python DataClient `instrument.get_futures_*`
  // (`data/request/get_futures_*`, x-version v2); resource paths: Java DataClient (`getFuturesProductClasses`,
  // `getFuturesProductsV2`, `getFuturesInstrumentsV2`, x-version v3). By-code has one path: Java sends it with v3 too.
  listFuturesProductClasses: {
    method: "GET",
    resource: "/trading/instruments/futures/product-classes/list",
    legacy: "/openapi/instrument/futures/product-classes",
    group: "market-data",
  },
  listFuturesProducts: {
    method: "GET",
    resource: "/trading/instruments/futures/product-codes/list",
    legacy: "/openapi/instrument/futures/products",
    group: "market-data",
  },
  listFuturesInstruments: {
    method: "GET",
    resource: "/trading/instruments/futures/contracts/list",
    legacy: "/openapi/instrument/futures/list",
    group: "market-data",
  },
  listFuturesInstrumentsByCode: {
    method: "GET",
    resource: "/openapi/instrument/futures/by-code",
    legacy: "/openapi/instrument/futures/by-code",
    group: "market-data",
  },

  // Watchlists (Python `data/request/watchlist/*`, x-version v2; Java DataClient watchlist calls, x-version v3).
  listWatchlists: {
    method: "GET",
    resource: "/market-data/watchlists/list",
    legacy: "/openapi/market-data/watchlist/list",
    group: "market-data",
  },
  createWatchlist: {
    method: "POST",
    resource: "/market-data/watchlists/create",
    legacy: "/openapi/market-data/watchlist/create",
    group: "market-data",
  },
  updateWatchlist: {
    method: "POST",
    resource: "/market-data/watchlists/update",
    legacy: "/openapi/market-data/watchlist/update",
    group: "market-data",
  },
  deleteWatchlist: {
    method: "POST",
    resource: "/market-data/watchlists/delete",
    legacy: "/openapi/market-data/watchlist/delete",
    group: "market-data",
  },
  listWatchlistInstruments: {
    method: "GET",
    resource: "/market-data/watchlists/instruments/list",
    legacy: "/openapi/market-data/watchlist/instruments/list",
    group: "market-data",
  },
  addWatchlistInstruments: {
    method: "POST",
    resource: "/market-data/watchlists/instruments/add",
    legacy: "/openapi/market-data/watchlist/instruments/add",
    group: "market-data",
  },
  removeWatchlistInstruments: {
    method: "POST",
    resource: "/market-data/watchlists/instruments/remove",
    legacy: "/openapi/market-data/watchlist/instruments/remove",
    group: "market-data",
  },
  updateWatchlistInstruments: {
    method: "POST",
    resource: "/market-data/watchlists/instruments/update",
    legacy: "/openapi/market-data/watchlist/instruments/update",
    group: "market-data",
  },

  // Options (legacy path from the specification; resource path chosen)
  exerciseOption: {
    method: "POST",
    resource: "/broker/options/exercises/create",
    legacy: "/openapi/broker/option/exercise",
    group: "order-write",
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

export type PathStyle = "resource" | "legacy";

/** Every path of a Market Data operation: both the broker's key and holders' Trading API keys reach these (spec: Market Data family). */
const MARKET_DATA_PATHS = new Set<string>(
  Object.values(OPERATIONS as Record<string, Operation>).flatMap((op) =>
    op.group === "market-data" ? [op.resource, op.legacy, ...(op.aliases ?? [])] : [],
  ),
);
export const isMarketDataPath = (path: string) =>
  MARKET_DATA_PATHS.has(path) || path.startsWith("/openapi/market-data/") || path.startsWith("/market-data/");

export function operationPath(name: OperationName, style: PathStyle): string {
  const op: Operation = OPERATIONS[name];
  return style === "legacy" ? op.legacy : op.resource;
}

/** x-version sent with each path style. */
export const VERSION_FOR_STYLE: Record<PathStyle, "v3" | "v2"> = { resource: "v3", legacy: "v2" };
