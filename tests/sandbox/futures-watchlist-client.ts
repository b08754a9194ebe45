import { DataSdkClient } from "./market-data-client";
import type { Res, SdkPaths } from "./trading-api-client";

/**
 * The futures reference data and watchlist calls of the official SDKs, for the contract tests, written from their
 * request classes: Python `webull/data/quotes/instrument.py` over `data/request/get_futures_*` and
 * `data/quotes/watchlist.py` over `data/request/watchlist/*` (x-version v2), and the Java `DataClient`
 * (`getFuturesProductClasses`, `getFuturesProductsV2`, `getFuturesInstrumentsV2`, `getFuturesInstrumentsByCode`, the
 * watchlist calls; x-version v3). It signs with the tests' own signer (trading-api-client.ts), never the app's code.
 */
/** [method, the Python SDK's path (v2), the Java SDK's path (v3)] per SDK method. */
export const FW_PATHS = {
  get_futures_product_class: ["GET", "/openapi/instrument/futures/product-classes", "/trading/instruments/futures/product-classes/list"],
  get_futures_products: ["GET", "/openapi/instrument/futures/products", "/trading/instruments/futures/product-codes/list"],
  get_futures_instrument: ["GET", "/openapi/instrument/futures/list", "/trading/instruments/futures/contracts/list"],
  get_futures_instrument_by_code: ["GET", "/openapi/instrument/futures/by-code", "/openapi/instrument/futures/by-code"],
  get_watchlist: ["GET", "/openapi/market-data/watchlist/list", "/market-data/watchlists/list"],
  create_watchlist: ["POST", "/openapi/market-data/watchlist/create", "/market-data/watchlists/create"],
  update_watchlist: ["POST", "/openapi/market-data/watchlist/update", "/market-data/watchlists/update"],
  delete_watchlist: ["POST", "/openapi/market-data/watchlist/delete", "/market-data/watchlists/delete"],
  get_instruments: ["GET", "/openapi/market-data/watchlist/instruments/list", "/market-data/watchlists/instruments/list"],
  add_instruments: ["POST", "/openapi/market-data/watchlist/instruments/add", "/market-data/watchlists/instruments/add"],
  remove_instruments: ["POST", "/openapi/market-data/watchlist/instruments/remove", "/market-data/watchlists/instruments/remove"],
  update_instruments: ["POST", "/openapi/market-data/watchlist/instruments/update", "/market-data/watchlists/instruments/update"],
} as const satisfies Record<string, SdkPaths>;
type FwMethod = keyof typeof FW_PATHS;

export interface WatchlistItem {
  symbol: string;
  category: string;
  sort?: number;
}

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(",") : v);

/** The data client of market-data-client.ts (same constructor: base URL, key, secret, token, path style, algorithm). */
export class FuturesWatchlistSdkClient extends DataSdkClient {
  /** One call of an SDK method: query values left out when absent, bodies only with what the setters add. */
  call(name: FwMethod, query: Record<string, unknown> = {}, body?: Record<string, unknown>): Promise<Res> {
    return this.http.sdkCall(FW_PATHS[name], query, body);
  }

  // instrument.py (futures); Java getFuturesInstrumentsV2 adds code and status on the v3 path
  get_futures_product_class = (category = "US_FUTURES") => this.call("get_futures_product_class", { category });
  get_futures_products = (category = "US_FUTURES", product_class_id?: number) =>
    this.call("get_futures_products", { category, product_class_id });
  get_futures_instrument = (q: { symbols?: string | string[]; category?: string; code?: string; status?: string }) =>
    this.call("get_futures_instrument", { category: "US_FUTURES", ...q, symbols: joined(q.symbols) });
  get_futures_instrument_by_code = (code: string, category = "US_FUTURES", contract_type?: string) =>
    this.call("get_futures_instrument_by_code", { code, category, contract_type });

  // watchlist.py: setters add sort / name only when given
  get_watchlist = () => this.call("get_watchlist");
  create_watchlist = (name: unknown, sort?: number) => this.call("create_watchlist", {}, { name, ...(sort === undefined ? {} : { sort }) });
  update_watchlist = (watchlist_id: string, name?: string, sort?: number) =>
    this.call("update_watchlist", {}, { watchlist_id, ...(name === undefined ? {} : { name }), ...(sort === undefined ? {} : { sort }) });
  delete_watchlist = (watchlist_id: string) => this.call("delete_watchlist", {}, { watchlist_id });
  get_instruments = (watchlist_id: string) => this.call("get_instruments", { watchlist_id });
  add_instruments = (watchlist_id: string, instruments: WatchlistItem[]) => this.call("add_instruments", {}, { watchlist_id, instruments });
  remove_instruments = (watchlist_id: string, instruments: WatchlistItem[]) =>
    this.call("remove_instruments", {}, { watchlist_id, instruments });
  update_instruments = (watchlist_id: string, instruments: WatchlistItem[]) =>
    this.call("update_instruments", {}, { watchlist_id, instruments });
}
