import { createHash, createHmac, randomUUID } from "node:crypto";

/**
 * An account holder's Trading API client for the contract tests, written from the official SDKs' request classes
 * (Python `webull/trade/request/v2|v3/*`, `trade/trade/v2/account_info_v2.py`, `trade/trade/v3/order_opration_v3.py`;
 * Java `TradeClientV3`) and signed with the facts sheet's recipe (§1.2), independently of server/wire/signing.ts:
 * nothing here imports the app's code, so the sandbox is checked against the SDKs, not against itself.
 */
export type Style = "legacy" | "resource";
type Method = "GET" | "POST";
/** An SDK method's [HTTP method, legacy path the SDKs call (x-version v2), resource-style path (x-version v3)]. */
export type SdkPaths = readonly [Method, string, string];

/** Each SDK method's paths. */
export const SDK_PATHS = {
  get_account_list: ["GET", "/openapi/account/list", "/trading/accounts/list"],
  get_account_balance: ["GET", "/openapi/assets/balance", "/trading/assets/balances/get"],
  get_account_position: ["GET", "/openapi/assets/positions", "/trading/assets/positions/list"],
  get_stock_instruments: ["GET", "/openapi/instrument/stock/list", "/trading/instruments/stocks/profiles/list"],
  get_option_contracts: ["GET", "/openapi/instrument/option/contracts/list", "/trading/instruments/options/contracts/list"],
  preview_order: ["POST", "/openapi/trade/order/preview", "/trading/orders/preview"],
  place_order: ["POST", "/openapi/trade/order/place", "/trading/orders/place"],
  batch_place_order: ["POST", "/openapi/trade/order/batch-place", "/trading/orders/batch-place"],
  get_trade_calendar: ["GET", "/trade/calendar", "/trading/master-data/trade-calendar/list"],
  replace_order: ["POST", "/openapi/trade/order/replace", "/trading/orders/replace"],
  cancel_order: ["POST", "/openapi/trade/order/cancel", "/trading/orders/cancel"],
  get_order_detail: ["GET", "/openapi/trade/order/detail", "/trading/orders/get"],
  get_order_history: ["GET", "/openapi/trade/order/history", "/trading/orders/historical-orders/list"],
  get_order_open: ["GET", "/openapi/trade/order/open", "/trading/orders/open-orders/list"],
  get_order_executions: ["GET", "/openapi/trade/order/executions", "/trading/orders/executions/list"],
} as const satisfies Record<string, SdkPaths>;
export type SdkMethod = keyof typeof SDK_PATHS;

const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Facts §1.2: sorted signing headers + host + query, path first, body digest last, percent-encoded, HMAC with secret + "&". */
export function sdkSignature(o: {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  host: string;
  body?: string;
  secret: string;
}): string {
  const params: Record<string, string> = { ...o.headers, host: o.host };
  for (const [k, v] of Object.entries(o.query)) params[k] = k in params ? `${params[k]}&${v}` : v;
  const str1 = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  const sha1 = o.headers["x-signature-algorithm"] === "HMAC-SHA1";
  let str3 = `${o.path}&${str1}`;
  if (o.body !== undefined)
    str3 += `&${createHash(sha1 ? "md5" : "sha256")
      .update(o.body)
      .digest("hex")
      .toUpperCase()}`;
  return createHmac(sha1 ? "sha1" : "sha256", `${o.secret}&`)
    .update(encode(str3))
    .digest("base64");
}

export interface Res {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- contract tests read response bodies loosely
  body: any;
}

export class TradingSdkClient {
  token: string | undefined;
  constructor(
    readonly baseUrl: string,
    readonly appKey: string,
    readonly appSecret: string,
    readonly style: Style = "legacy",
    readonly algorithm: "HMAC-SHA1" | "HMAC-SHA256" = "HMAC-SHA256",
  ) {}

  /** One signed request, as the SDK's ApiClient sends it: the host signed without the port, compact JSON, x-version v2. */
  async request(
    method: Method,
    path: string,
    query: Record<string, unknown> = {},
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Res> {
    const q = Object.fromEntries(
      Object.entries(query)
        .filter(([, v]) => v !== undefined && v !== null && v !== "")
        .map(([k, v]) => [k, String(v)]),
    );
    const text = method === "POST" ? JSON.stringify(body ?? {}) : undefined;
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
    const headers: Record<string, string> = {
      "x-app-key": this.appKey,
      "x-timestamp": new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      "x-signature-version": "1.0",
      "x-signature-algorithm": this.algorithm,
      "x-signature-nonce": randomUUID(),
    };
    const signature = sdkSignature({ path, query: q, headers, host: url.hostname, body: text, secret: this.appSecret });
    const sent: Record<string, string> = {
      ...headers,
      "x-signature": signature,
      "x-version": path.startsWith("/openapi/") ? "v2" : "v3",
      "x-webull-client-source": "sdk",
      ...extraHeaders,
    };
    if (this.token) sent["x-access-token"] = this.token;
    if (text !== undefined) sent["content-type"] = "application/json";
    const res = await fetch(url, { method, headers: sent, body: text });
    const raw = await res.text();
    return { status: res.status, body: raw ? JSON.parse(raw) : undefined };
  }

  /** 2FA token: create (auto-confirmed in the tests' sandbox). */
  async login(): Promise<void> {
    const r = await this.request("POST", "/openapi/auth/token/create", {}, {});
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    this.token = r.body.token;
  }

  /** One call of an SDK method by its paths: the legacy or the resource-style one, as this client's style. */
  sdkCall(paths: SdkPaths, query: Record<string, unknown> = {}, body?: unknown, headers?: Record<string, string>): Promise<Res> {
    const [method, legacy, resource] = paths;
    return this.request(method, this.style === "legacy" ? legacy : resource, query, body, headers);
  }

  private op(name: SdkMethod, query: Record<string, unknown> = {}, body?: unknown, headers?: Record<string, string>) {
    return this.sdkCall(SDK_PATHS[name], query, body, headers);
  }

  // account_info_v2.py
  get_account_list = () => this.op("get_account_list");
  get_account_balance = (account_id: string) => this.op("get_account_balance", { account_id });
  get_account_position = (account_id: string) => this.op("get_account_position", { account_id });
  // data/quotes/instrument.py get_instrument(symbols, category="US_STOCK", status, last_instrument_id, page_size=1000), plus
  // the spec's sub_category filter; option contracts.
  get_stock_instruments = (q: {
    symbols?: string;
    category?: string;
    sub_category?: string;
    status?: string;
    last_instrument_id?: string;
    page_size?: number;
  }) => this.op("get_stock_instruments", { category: "US_STOCK", page_size: 1000, ...q });
  get_option_contracts = (q: Record<string, unknown>) => this.op("get_option_contracts", q);
  // order_opration_v3.py: bodies {account_id, new_orders | modify_orders, client_combo_order_id?}; place adds header `category`.
  preview_order = (account_id: string, preview_orders: unknown[], client_combo_order_id?: string) =>
    this.op("preview_order", {}, { account_id, new_orders: preview_orders, ...(client_combo_order_id ? { client_combo_order_id } : {}) });
  place_order = (account_id: string, new_orders: Record<string, unknown>[], client_combo_order_id?: string) =>
    this.op(
      "place_order",
      {},
      { account_id, new_orders, ...(client_combo_order_id ? { client_combo_order_id } : {}) },
      { category: `${new_orders[0].market}_${new_orders[0].instrument_type}` },
    );
  batch_place_order = (account_id: string, batch_orders: Record<string, unknown>[]) =>
    this.op(
      "batch_place_order",
      {},
      { account_id, batch_orders },
      { category: `${batch_orders[0].market}_${batch_orders[0].instrument_type}` },
    );
  // trade/trade/trade_calendar.py (v1 request `get_trade_calendar_request.py`): market, start, end.
  get_trade_calendar = (market: string, start: string, end: string) => this.op("get_trade_calendar", { market, start, end });
  replace_order = (account_id: string, modify_orders: unknown[]) => this.op("replace_order", {}, { account_id, modify_orders });
  cancel_order = (account_id: string, client_order_id: string) => this.op("cancel_order", {}, { account_id, client_order_id });
  get_order_detail = (account_id: string, client_order_id: string) => this.op("get_order_detail", { account_id, client_order_id });
  get_order_history = (
    account_id: string,
    o: { page_size?: number; start_date?: string; end_date?: string; last_client_order_id?: string } = {},
  ) => this.op("get_order_history", { account_id, ...o });
  get_order_open = (account_id: string, o: { page_size?: number; last_client_order_id?: string } = {}) =>
    this.op("get_order_open", { account_id, ...o });
  // Java TradeClientV3.getOrderExecutions(accountId, clientOrderId, startDate, endDate, lastExecutionId, pageSize).
  get_order_executions = (
    account_id: string,
    o: { client_order_id?: string; start_date?: string; end_date?: string; last_execution_id?: string; page_size?: number } = {},
  ) => this.op("get_order_executions", { account_id, ...o });
}

/** The list inside a response: a bare array on legacy paths, {"data": [...]} on resource paths. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- contract tests read response bodies loosely
export const items = (r: Res): any[] => (Array.isArray(r.body) ? r.body : r.body.data);
