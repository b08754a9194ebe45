import { TradingSdkClient, type Res, type SdkPaths, type Style } from "./trading-api-client";

/**
 * A Market Data API client for the contract tests, written from the official SDKs' data request classes (Python
 * `webull/data/request/*` through `data/quotes/market_data.py` and `option_market_data.py`; Java `DataClient`): the
 * paths, parameters and bodies they send, on x-version v2. It signs with the tests' own SDK signer (facts §1.2, in
 * trading-api-client.ts), never with the app's code, so either an app key of the broker or of an account holder's
 * Trading API credentials can drive it.
 */
/** [method, the SDK's path (x-version v2), the resource-style path (x-version v3)] per SDK method. */
export const DATA_PATHS = {
  get_snapshot: ["GET", "/openapi/market-data/stock/snapshot", "/market-data/stocks/snapshots/list"],
  get_quotes: ["GET", "/openapi/market-data/stock/quotes", "/market-data/stocks/depths/list"],
  get_tick: ["GET", "/openapi/market-data/stock/tick", "/market-data/stocks/ticks/list"],
  get_history_bar: ["GET", "/openapi/market-data/stock/bars", "/market-data/stocks/bars/list"],
  get_batch_history_bar: ["POST", "/openapi/market-data/stock/batch-bars", "/market-data/stocks/batch-bars/list"],
  get_footprint: ["GET", "/openapi/market-data/stock/footprint", "/market-data/stocks/footprints/list"],
  get_noii_snapshot: ["GET", "/openapi/market-data/stock/noii/snapshot", "/market-data/stocks/noii/snapshots/get"],
  get_noii_bars: ["GET", "/openapi/market-data/stock/noii/bars", "/market-data/stocks/noii/bars/list"],
  get_option_snapshot: ["GET", "/openapi/market-data/option/snapshot", "/market-data/options/snapshots/list"],
  get_option_history_bars: ["GET", "/openapi/market-data/option/bars", "/market-data/options/bars/list"],
  get_option_tick: ["GET", "/openapi/market-data/option/tick", "/market-data/options/ticks/list"],
} as const satisfies Record<string, SdkPaths>;
export type DataMethod = keyof typeof DATA_PATHS;

const list = (v: string | string[]) => (Array.isArray(v) ? v.join(",") : v);

export class DataSdkClient {
  readonly http: TradingSdkClient;
  constructor(
    baseUrl: string,
    appKey: string,
    appSecret: string,
    token: string | undefined,
    readonly style: Style = "legacy",
    algorithm: "HMAC-SHA1" | "HMAC-SHA256" = "HMAC-SHA256",
  ) {
    this.http = new TradingSdkClient(baseUrl, appKey, appSecret, style, algorithm);
    this.http.token = token;
  }

  private op(name: DataMethod, query: Record<string, unknown> = {}, body?: unknown): Promise<Res> {
    return this.http.sdkCall(DATA_PATHS[name], query, body);
  }

  // market_data.py
  get_snapshot = (symbols: string | string[], category: string, extend_hour_required?: boolean, overnight_required?: boolean) =>
    this.op("get_snapshot", { symbols: list(symbols), category, extend_hour_required, overnight_required });
  get_quotes = (symbol: string, category: string, depth?: number, overnight_required?: boolean) =>
    this.op("get_quotes", { symbol, category, depth, overnight_required });
  get_tick = (symbol: string, category: string, count: number | string = "200", trading_sessions?: string[]) =>
    this.op("get_tick", { symbol, category, count, trading_sessions: trading_sessions?.join(",") });
  get_history_bar = (symbol: string, category: string, timespan: string, count: number | string = "200", trading_sessions?: string[]) =>
    this.op("get_history_bar", { symbol, category, timespan, count, trading_sessions: trading_sessions?.join(",") });
  // BatchHistoricalBarsRequest: a JSON body {symbols: [...], category, timespan, count}.
  get_batch_history_bar = (symbols: string[], category: string, timespan: string, count: number | string = "200") =>
    this.op("get_batch_history_bar", {}, { symbols, category, timespan, count });
  get_footprint = (symbols: string | string[], category: string, timespan: string, count?: number) =>
    this.op("get_footprint", { symbols: list(symbols), category, timespan, count });
  get_noii_snapshot = (symbol: string, category: string, imbalance_action_type: string) =>
    this.op("get_noii_snapshot", { symbol, category, imbalance_action_type });
  get_noii_bars = (symbol: string, category: string, imbalance_action_type: string) =>
    this.op("get_noii_bars", { symbol, category, imbalance_action_type });
  // option_market_data.py
  get_option_snapshot = (symbols: string | string[], category = "US_OPTION") =>
    this.op("get_option_snapshot", { symbols: list(symbols), category });
  get_option_history_bars = (symbols: string | string[], category: string, timespan: string, count: number | string = "200") =>
    this.op("get_option_history_bars", { symbols: list(symbols), category, timespan, count });
  get_option_tick = (symbol: string, category: string, count: number | string = "30") =>
    this.op("get_option_tick", { symbol, category, count });
}
