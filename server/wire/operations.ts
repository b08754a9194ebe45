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

export const OPERATIONS = {
  // Token / 2FA (same paths in both styles).
  getConfig: { method: "GET", resource: "/openapi/config", legacy: "/openapi/config", group: "token" },
  createToken: { method: "POST", resource: "/openapi/auth/token/create", legacy: "/openapi/auth/token/create", group: "token" },
  checkToken: { method: "POST", resource: "/openapi/auth/token/check", legacy: "/openapi/auth/token/check", group: "token" },
  refreshToken: { method: "POST", resource: "/openapi/auth/token/refresh", legacy: "/openapi/auth/token/refresh", group: "token" },

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

  // Market data (facts §4.3; the sandbox serves stock and option snapshots and bars from its simulated market).
  // The upstream's resource-style bars call is a POST; the sandbox also answers GET there, which this table uses.
  getStockSnapshot: {
    method: "GET",
    resource: "/market-data/stocks/snapshots/list",
    legacy: "/openapi/market-data/stock/snapshot",
    group: "market-data",
  },
  listStockBars: {
    method: "GET",
    resource: "/market-data/stocks/bars/list",
    legacy: "/openapi/market-data/stock/bars",
    group: "market-data",
  },

  // Fundamentals (Market Data API; the SDK's data client paths as legacy: webull/data/request/*; resource paths chosen).
  // Company profile and analyst data moved here from the Trading API's instrument module (spec, Versioning 5).
  getCompanyProfile: {
    method: "GET",
    resource: "/market-data/fundamentals/company-profiles/get",
    legacy: "/openapi/instrument/company/profile",
    group: "market-data",
  },
  getAnalystRating: {
    method: "GET",
    resource: "/market-data/fundamentals/analyst-ratings/get",
    legacy: "/openapi/instrument/analyst/rating",
    group: "market-data",
  },
  getAnalystTargetPrice: {
    method: "GET",
    resource: "/market-data/fundamentals/analyst-target-prices/get",
    legacy: "/openapi/instrument/analyst/target-price",
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
  listIncomeStatements: {
    method: "GET",
    resource: "/market-data/fundamentals/financials/income/list",
    legacy: "/openapi/fundamentals/financial/income",
    group: "market-data",
  },
  listCashFlowStatements: {
    method: "GET",
    resource: "/market-data/fundamentals/financials/cash-flow/list",
    legacy: "/openapi/fundamentals/financial/cash-flow",
    group: "market-data",
  },
  listBalanceSheets: {
    method: "GET",
    resource: "/market-data/fundamentals/financials/balance-sheet/list",
    legacy: "/openapi/fundamentals/financial/balance-sheet",
    group: "market-data",
  },
  getFundBrief: {
    method: "GET",
    resource: "/market-data/fundamentals/funds/brief/get",
    legacy: "/openapi/fundamentals/fund/brief",
    group: "market-data",
  },
  listFundHoldings: {
    method: "GET",
    resource: "/market-data/fundamentals/funds/holdings/list",
    legacy: "/openapi/fundamentals/fund/holdings",
    group: "market-data",
  },
  listFundPerformance: {
    method: "GET",
    resource: "/market-data/fundamentals/funds/performance/list",
    legacy: "/openapi/fundamentals/fund/performance",
    group: "market-data",
  },
  listCorporateActions: {
    method: "GET",
    resource: "/market-data/instruments/corporate-actions/list",
    legacy: "/instrument/corp-action",
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

export function operationPath(name: OperationName, style: PathStyle): string {
  const op: Operation = OPERATIONS[name];
  return style === "legacy" ? op.legacy : op.resource;
}

/** x-version sent with each path style. */
export const VERSION_FOR_STYLE: Record<PathStyle, "v3" | "v2"> = { resource: "v3", legacy: "v2" };
