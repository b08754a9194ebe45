import "server-only";
import type { Operation } from "./operations";

/**
 * Every Trading API operation (the account holder's family), with the paths the official SDKs call (legacy,
 * `/openapi/...`, x-version v2: the Python SDK's `webull/trade/request/v2` and `v3` request classes; the Java SDK's
 * TradeClientV3 calls the same paths) and the resource-style paths of the newer reference (facts §4.2).
 * `aliases` are the SDKs' per-category variants of the same operation and the `/openapi/account/...` paths of earlier
 * Python SDK releases (v2 request classes before the move to `/openapi/trade/...` and `/openapi/assets/...`). Paths marked "chosen" are not published.
 * The sandbox registers its Trading API routes from this table; docs/sandbox-api.md lists each with its SDK method.
 */
export const TRADING_OPERATIONS = {
  // Accounts and assets
  listTradingAccounts: { method: "GET", resource: "/trading/accounts/list", legacy: "/openapi/account/list", group: "account" },
  getTradingBalance: {
    method: "GET",
    resource: "/trading/assets/balances/get",
    legacy: "/openapi/assets/balance",
    aliases: ["/openapi/account/balance"],
    group: "assets",
  },
  listTradingPositions: {
    method: "GET",
    resource: "/trading/assets/positions/list",
    legacy: "/openapi/assets/positions",
    aliases: ["/openapi/account/positions"],
    group: "assets",
  },

  // Instruments. Stock instruments: Python DataClient `instrument.get_instrument` (`data/request/get_instruments_request.py`).
  // Option contracts: resource path from the reference; legacy path chosen.
  listTradingStockInstruments: {
    method: "GET",
    resource: "/trading/instruments/stocks/profiles/list",
    legacy: "/openapi/instrument/stock/list",
    group: "instrument",
  },
  listTradingOptionContracts: {
    method: "GET",
    resource: "/trading/instruments/options/contracts/list",
    legacy: "/openapi/instrument/option/contracts/list",
    group: "instrument",
  },

  // Orders
  previewTradingOrder: {
    method: "POST",
    resource: "/trading/orders/preview",
    legacy: "/openapi/trade/order/preview",
    aliases: ["/openapi/trade/stock/order/preview", "/openapi/trade/option/order/preview", "/openapi/account/orders/preview"],
    group: "order-write",
  },
  placeTradingOrder: {
    method: "POST",
    resource: "/trading/orders/place",
    legacy: "/openapi/trade/order/place",
    aliases: ["/openapi/trade/stock/order/place", "/openapi/trade/option/order/place", "/openapi/account/orders/place"],
    group: "order-write",
  },
  replaceTradingOrder: {
    method: "POST",
    resource: "/trading/orders/replace",
    legacy: "/openapi/trade/order/replace",
    aliases: ["/openapi/trade/stock/order/replace", "/openapi/trade/option/order/replace", "/openapi/account/orders/replace"],
    group: "order-write",
  },
  cancelTradingOrder: {
    method: "POST",
    resource: "/trading/orders/cancel",
    legacy: "/openapi/trade/order/cancel",
    aliases: ["/openapi/trade/stock/order/cancel", "/openapi/trade/option/order/cancel", "/openapi/account/orders/cancel"],
    group: "order-write",
  },
  // Python `order_v3.batch_place_order` / Java `batchPlaceOrder`: up to 50 independent equity orders.
  batchPlaceTradingOrders: {
    method: "POST",
    resource: "/trading/orders/batch-place",
    legacy: "/openapi/trade/order/batch-place",
    group: "order-write",
  },
  getTradingOrder: {
    method: "GET",
    resource: "/trading/orders/get",
    legacy: "/openapi/trade/order/detail",
    aliases: ["/openapi/account/orders/detail"],
    group: "order-query",
  },
  listTradingOrderHistory: {
    method: "GET",
    resource: "/trading/orders/historical-orders/list",
    legacy: "/openapi/trade/order/history",
    group: "order-query",
  },
  listTradingOpenOrders: {
    method: "GET",
    resource: "/trading/orders/open-orders/list",
    legacy: "/openapi/trade/order/open",
    aliases: ["/openapi/account/orders/open"],
    group: "order-query",
  },
  // chosen paths: List Order Executions (one order's, by client_order_id) and Query Order Executions (by date range)
  // are one operation with different filters.
  listTradingOrderExecutions: {
    method: "GET",
    resource: "/trading/orders/executions/list",
    legacy: "/openapi/trade/order/executions",
    group: "order-query",
  },

  // Python `trade_calendar.get_trade_calendar(market, start, end)` (v1 request, path without /openapi; resource path chosen).
  getTradingCalendar: {
    method: "GET",
    resource: "/trading/master-data/trade-calendar/list",
    legacy: "/trade/calendar",
    group: "master-data",
  },
} as const satisfies Record<string, Operation>;

export type TradingOperationName = keyof typeof TRADING_OPERATIONS;

/** Path prefixes of the Trading API: only Trading API credentials reach them, and they reach nothing else but these. */
export const TRADING_PATH_PREFIXES = [
  "/trading/",
  "/openapi/account/",
  "/openapi/assets/",
  "/openapi/instrument/",
  "/openapi/trade/",
  "/trade/calendar",
] as const;

export const isTradingPath = (path: string) => TRADING_PATH_PREFIXES.some((p) => path.startsWith(p));
