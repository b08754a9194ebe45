import "server-only";
import { z } from "zod";
import { isBrokerError } from "./errors";
import type { OperationName } from "@/server/wire/operations";
import { cursorQuery, parsePage, type ListSpec } from "./pagination";
import { parseRequest, parseResponse } from "./parse";
import { RateBudget, type RateLimit } from "./rate-budget";
import type { RateGroup } from "@/server/wire/operations";
import * as A from "./schemas/accounts";
import * as S from "./schemas/assets";
import * as F from "./schemas/funding";
import * as Fu from "./schemas/fundamentals";
import * as Ft from "./schemas/futures";
import * as I from "./schemas/instruments";
import * as K from "./schemas/market";
import * as M from "./schemas/misc";
import * as O from "./schemas/orders";
import * as R from "./schemas/screeners";
import * as W from "./schemas/watchlists";
import { TokenManager, type TokenManagerOptions } from "./token-manager";
import { MemoryTokenStore, type TokenStore } from "./token-store";
import { Transport, type CallOptions, type TransportConfig, type TransportDeps } from "./transport";

/**
 * The Broker API client: every upstream operation as a typed method. Inputs are validated with the request
 * schemas, outputs parsed into app types; signing, retries, budget and logs happen in the transport, the token in
 * the token manager. Model: vercel/commerce lib/shopify/index.ts.
 */
export interface BrokerClientConfig extends TransportConfig {
  kind: "sandbox" | "external";
  rateLimits?: Partial<Record<RateGroup, RateLimit>>;
  token?: Omit<TokenManagerOptions, "scope" | "kind" | "transport" | "store">;
}

export interface BrokerClientDeps extends TransportDeps {
  tokenStore?: TokenStore;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Told the upstream request id of a successful answer (audit entries record it; parsed results do not carry it). */
  onResponse?: (info: { requestId?: string; attempts: number; body?: unknown }) => void;
}

type In<Sc extends z.ZodType> = z.input<Sc>;
type Out<Sc extends z.ZodType> = z.output<Sc>;

const list = <T extends z.ZodType>(item: T) =>
  z.union([z.array(item), z.object({ data: z.array(item).nullish() }).transform((w) => w.data ?? [])]);
const first = <T extends z.ZodType>(item: T) =>
  z.union([
    item,
    z
      .array(item)
      .min(1)
      .transform((a) => a[0]),
  ]);
/** An order group, or a bare order record wrapped into a group of one. */
const orderGroupLoose = z.union([
  O.orderGroup,
  O.order.transform((o) => ({
    client_order_id: o.client_order_id,
    client_combo_order_id: undefined,
    combo_type: o.combo_type,
    orders: [o],
  })),
]);

const SPECS = {
  accounts: { lastIdParam: "last_account_id", idOf: (a: A.VirtualAccount) => a.account_id },
  instruments: { lastIdParam: "last_instrument_id", idOf: (i: I.Instrument) => i.instrument_id },
  options: { lastIdParam: "last_instrument_id", idOf: (i: I.OptionContract) => i.instrument_id, lastIdOnly: true },
  activities: { lastIdParam: "last_activity_id", idOf: (a: A.Activity) => a.id },
  orders: { lastIdParam: "last_client_order_id", idOf: (g: O.OrderGroup) => g.client_order_id },
  executions: { lastIdParam: "last_execution_id", idOf: (e: O.Execution) => e.execution_id },
} satisfies Record<string, ListSpec<never>>;

export function createBrokerClient(config: BrokerClientConfig, deps: BrokerClientDeps = {}) {
  const transport = new Transport(config, { ...deps, budget: deps.budget ?? new RateBudget(config.rateLimits) });
  const tokens = new TokenManager({
    ...config.token,
    scope: { baseUrl: config.baseUrl, appKey: config.appKey },
    kind: config.kind,
    transport,
    store: deps.tokenStore ?? new MemoryTokenStore(),
  });

  /** One authenticated call; an INVALID_TOKEN answer (401: nothing was processed) gets one retry with a new token when one can be made. */
  async function send(name: OperationName, { onResponse, ...opts }: CallOptions & Pick<RequestOptions, "onResponse">) {
    const res = await sendOnce(name, opts);
    // The body as received, before parsing: for a page that shows the upstream's raw answer.
    onResponse?.({ requestId: res.requestId, attempts: res.attempts, body: res.data });
    return res;
  }

  async function sendOnce(name: OperationName, opts: CallOptions) {
    const token = await tokens.accessToken(opts.signal);
    try {
      return await transport.call(name, { ...opts, accessToken: token });
    } catch (e) {
      if (!(isBrokerError(e) && e.errorCode === "INVALID_TOKEN" && token)) throw e;
      await tokens.markInvalid(token);
      if (!tokens.canAutoCreate) throw e;
      return transport.call(name, { ...opts, accessToken: await tokens.accessToken(opts.signal) });
    }
  }

  async function get<Q extends z.ZodType, R extends z.ZodType>(
    name: OperationName,
    qs: Q,
    input: In<Q>,
    out: R,
    ro: RequestOptions = {},
  ): Promise<Out<R>> {
    const query = parseRequest(qs, input, name) as Record<string, never>;
    const res = await send(name, { ...ro, query });
    return parseResponse(out, res.data, name, res.requestId);
  }

  async function post<B extends z.ZodType, R extends z.ZodType>(
    name: OperationName,
    bs: B,
    input: In<B>,
    out: R,
    idempotent: boolean,
    ro: RequestOptions = {},
  ): Promise<Out<R>> {
    const body = parseRequest(bs, input, name);
    const res = await send(name, { ...ro, body, idempotent });
    return parseResponse(out, res.data, name, res.requestId);
  }

  async function page<Q extends z.ZodType, T extends z.ZodType>(
    name: OperationName,
    qs: Q,
    input: In<Q>,
    item: T,
    spec: ListSpec<Out<T>>,
    ro: RequestOptions = {},
  ) {
    const { cursor, ...query } = parseRequest(qs, input, name) as { cursor?: string; page_size?: number };
    const res = await send(name, {
      ...ro,
      query: { ...query, ...cursorQuery(spec as ListSpec<unknown>, config.pathStyle, cursor) } as Record<string, never>,
    });
    return parsePage(item, spec, res.data, query.page_size, name, res.requestId);
  }

  /** Creates a funding or journal request: a post retried with the very same body (its client_request_id). */
  const createRequest =
    <B extends z.ZodType, R extends z.ZodType>(name: OperationName, body: B, record: R) =>
    (input: In<B>, ro?: RequestOptions) =>
      post(name, body, input, record, true, ro);
  /** A funding or journal request read back by its client_request_id: the same record, or a list of one. */
  const requestDetail =
    <R extends z.ZodType>(name: OperationName, record: R) =>
    (input: F.RequestDetailInput, ro?: RequestOptions) =>
      get(name, F.requestDetailIn, input, first(record), ro);

  return {
    config: {
      kind: config.kind,
      baseUrl: config.baseUrl,
      pathStyle: config.pathStyle,
      algorithm: config.algorithm,
      version: transport.version,
    },
    tokens,
    transport,

    // Accounts
    createVirtualAccount: (input: A.CreateVirtualAccountInput, ro?: RequestOptions) =>
      post("createVirtualAccount", A.createVirtualAccountIn, input, A.virtualAccountResult, true, ro),
    updateVirtualAccount: (input: A.UpdateVirtualAccountInput, ro?: RequestOptions) =>
      post("updateVirtualAccount", A.updateVirtualAccountIn, input, A.virtualAccountResult, true, ro),
    getVirtualAccount: (input: In<typeof A.getVirtualAccountIn>, ro?: RequestOptions) =>
      get("getVirtualAccount", A.getVirtualAccountIn, input, first(A.virtualAccount), ro),
    listVirtualAccounts: (input: A.ListVirtualAccountsInput = {}, ro?: RequestOptions) =>
      page("listVirtualAccounts", A.listVirtualAccountsIn, input, A.virtualAccount, SPECS.accounts, ro),
    listAccountActivities: (input: A.ListAccountActivitiesInput, ro?: RequestOptions) =>
      page("listAccountActivities", A.listAccountActivitiesIn, input, A.activity, SPECS.activities, ro),

    // Instruments
    listStockInstruments: (input: I.ListStockInstrumentsInput = {}, ro?: RequestOptions) =>
      page("listStockInstruments", I.listStockInstrumentsIn, input, I.instrument, SPECS.instruments, ro),
    getStockLocate: (input: In<typeof I.getStockLocateIn>, ro?: RequestOptions) =>
      get("getStockLocate", I.getStockLocateIn, input, first(I.stockLocate), ro),
    getCorporateAction: (input: In<typeof I.getCorporateActionIn>, ro?: RequestOptions) =>
      get("getCorporateAction", I.getCorporateActionIn, input, first(I.corporateAction), ro),
    listOptionContracts: (input: I.ListOptionContractsInput = {}, ro?: RequestOptions) =>
      page("listOptionContracts", I.listOptionContractsIn, input, I.optionContract, SPECS.options, ro),

    // Fundamentals (Market Data API): records parsed tolerantly (./schemas/fundamentals.ts)
    getCompanyProfile: (input: Fu.SymbolInput, ro?: RequestOptions) => get("getCompanyProfile", Fu.symbolIn, input, Fu.facts, ro),
    getAnalystRating: (input: Fu.SymbolInput, ro?: RequestOptions) => get("getAnalystRating", Fu.symbolIn, input, Fu.facts, ro),
    getAnalystTargetPrice: (input: Fu.SymbolInput, ro?: RequestOptions) => get("getAnalystTargetPrice", Fu.symbolIn, input, Fu.facts, ro),
    listEarningsCalendar: (input: Fu.SymbolInput, ro?: RequestOptions) => get("listEarningsCalendar", Fu.symbolIn, input, Fu.facts, ro),
    listDividendCalendar: (input: Fu.SymbolInput, ro?: RequestOptions) => get("listDividendCalendar", Fu.symbolIn, input, Fu.facts, ro),
    getIncomeStatements: (input: Fu.StatementInput, ro?: RequestOptions) => get("getIncomeStatements", Fu.statementIn, input, Fu.facts, ro),
    getCashFlows: (input: Fu.StatementInput, ro?: RequestOptions) => get("getCashFlows", Fu.statementIn, input, Fu.facts, ro),
    getBalanceSheets: (input: Fu.StatementInput, ro?: RequestOptions) => get("getBalanceSheets", Fu.statementIn, input, Fu.facts, ro),
    getFundBrief: (input: Fu.SymbolInput, ro?: RequestOptions) => get("getFundBrief", Fu.symbolIn, input, Fu.facts, ro),
    getFundHoldings: (input: Fu.SymbolInput, ro?: RequestOptions) => get("getFundHoldings", Fu.symbolIn, input, Fu.facts, ro),
    getFundPerformance: (input: Fu.SymbolInput, ro?: RequestOptions) => get("getFundPerformance", Fu.symbolIn, input, Fu.facts, ro),
    listMarketCorporateActions: (input: Fu.CorporateActionsInput, ro?: RequestOptions) =>
      get("listMarketCorporateActions", Fu.corporateActionsIn, input, Fu.facts, ro),

    // Assets
    getBalance: (input: In<typeof S.balanceIn>, ro?: RequestOptions) => get("getBalance", S.balanceIn, input, first(S.balance), ro),
    listPositions: (input: In<typeof S.accountIdIn>, ro?: RequestOptions) =>
      get("listPositions", S.accountIdIn, input, list(S.position), ro),

    // Orders. Place is retried with the very same body (same client_order_id); replace and cancel never are.
    previewOrder: (input: O.PreviewOrderInput, ro?: RequestOptions) =>
      post("previewOrder", O.previewOrderIn, input, first(O.orderPreview), true, ro),
    placeOrder: (input: O.PlaceOrderInput, ro?: RequestOptions) => post("placeOrder", O.placeOrderIn, input, O.orderAcks, true, ro),
    replaceOrder: (input: O.ReplaceOrderInput, ro?: RequestOptions) =>
      post("replaceOrder", O.replaceOrderIn, input, O.orderAcks, false, ro),
    cancelOrder: (input: O.CancelOrderInput, ro?: RequestOptions) =>
      post("cancelOrder", O.cancelOrderIn, input, first(O.orderAck), false, ro),
    getOrder: (input: In<typeof O.getOrderIn>, ro?: RequestOptions) => get("getOrder", O.getOrderIn, input, first(orderGroupLoose), ro),
    listOrderHistory: (input: O.ListOrdersInput, ro?: RequestOptions) =>
      page("listOrderHistory", O.listOrdersIn, input, orderGroupLoose, SPECS.orders, ro),
    listOpenOrders: (input: O.ListOpenOrdersInput, ro?: RequestOptions) =>
      page("listOpenOrders", O.listOpenOrdersIn, input, orderGroupLoose, SPECS.orders, ro),
    listOrderExecutions: (input: O.ListOrderExecutionsInput, ro?: RequestOptions) =>
      page("listOrderExecutions", O.listOrderExecutionsIn, input, O.execution, SPECS.executions, ro),

    // Funding
    getFxRate: (input: F.FxRateInput, ro?: RequestOptions) => get("getFxRate", F.fxRateIn, input, first(F.fxRate), ro),
    createFxRequest: createRequest("createFxRequest", F.createFxIn, F.fxRequest),
    getFxRequest: requestDetail("getFxRequest", F.fxRequest),
    createInstantExchange: createRequest("createInstantExchange", F.createInstantExchangeIn, F.instantExchange),
    getInstantExchange: requestDetail("getInstantExchange", F.instantExchange),
    createInstantFunding: createRequest("createInstantFunding", F.createInstantFundingIn, F.instantFunding),
    getInstantFunding: requestDetail("getInstantFunding", F.instantFunding),

    // Journals
    createCashJournal: createRequest("createCashJournal", F.createCashJournalIn, F.cashJournal),
    getCashJournal: requestDetail("getCashJournal", F.cashJournal),
    createPositionJournal: createRequest("createPositionJournal", F.createPositionJournalIn, F.positionJournal),
    getPositionJournal: requestDetail("getPositionJournal", F.positionJournal),

    // Master data and options
    listTradeCalendar: (input: M.TradeCalendarInput, ro?: RequestOptions) =>
      get("listTradeCalendar", M.tradeCalendarIn, input, list(M.tradeCalendarDay), ro),
    exerciseOption: (input: M.ExerciseOptionInput, ro?: RequestOptions) =>
      post("exerciseOption", M.exerciseOptionIn, input, first(M.optionExercise), true, ro),

    // Market data: screeners (rankings as { rows, hasMore } on both path styles)
    getGainersLosers: (input: In<typeof R.gainersLosersIn>, ro?: RequestOptions) =>
      get("getGainersLosers", R.gainersLosersIn, input, R.ranking, ro),
    getTopActive: (input: In<typeof R.topActiveIn>, ro?: RequestOptions) => get("getTopActive", R.topActiveIn, input, R.ranking, ro),
    getHighDividend: (input: In<typeof R.highDividendIn>, ro?: RequestOptions) =>
      get("getHighDividend", R.highDividendIn, input, R.ranking, ro),
    get52WeekHighLow: (input: In<typeof R.week52In>, ro?: RequestOptions) => get("get52WeekHighLow", R.week52In, input, R.ranking, ro),
    listMarketSectors: (input: In<typeof R.marketSectorsIn>, ro?: RequestOptions) =>
      get("listMarketSectors", R.marketSectorsIn, input, R.marketSectors, ro),
    getMarketSectorDetail: (input: In<typeof R.marketSectorDetailIn>, ro?: RequestOptions) =>
      get("getMarketSectorDetail", R.marketSectorDetailIn, input, R.marketSectorDetail, ro),

    // Market data: futures reference data (bare arrays on both path styles; `list` also takes {data})
    listFuturesProductClasses: (input: In<typeof Ft.productClassesIn> = {}, ro?: RequestOptions) =>
      get("listFuturesProductClasses", Ft.productClassesIn, input, list(Ft.productClass), ro),
    listFuturesProducts: (input: Ft.ProductsInput = {}, ro?: RequestOptions) =>
      get("listFuturesProducts", Ft.productsIn, input, list(Ft.product), ro),
    listFuturesInstruments: (input: Ft.InstrumentsInput = {}, ro?: RequestOptions) =>
      get("listFuturesInstruments", Ft.instrumentsIn, input, list(Ft.instrument), ro),
    listFuturesInstrumentsByCode: (input: Ft.InstrumentsByCodeInput, ro?: RequestOptions) =>
      get("listFuturesInstrumentsByCode", Ft.instrumentsByCodeIn, input, list(Ft.instrument), ro),

    // Market data: watchlists of this app key. No write carries a client id, so none is ever re-sent.
    listWatchlists: (input: In<typeof W.listIn> = {}, ro?: RequestOptions) => get("listWatchlists", W.listIn, input, list(W.watchlist), ro),
    createWatchlist: (input: W.CreateWatchlistInput, ro?: RequestOptions) =>
      post("createWatchlist", W.createIn, input, first(W.created), false, ro),
    updateWatchlist: (input: W.UpdateWatchlistInput, ro?: RequestOptions) => post("updateWatchlist", W.updateIn, input, W.ack, false, ro),
    deleteWatchlist: (input: In<typeof W.watchlistIdIn>, ro?: RequestOptions) =>
      post("deleteWatchlist", W.watchlistIdIn, input, W.ack, false, ro),
    listWatchlistInstruments: (input: In<typeof W.watchlistIdIn>, ro?: RequestOptions) =>
      get("listWatchlistInstruments", W.watchlistIdIn, input, first(W.watchlistInstruments), ro),
    addWatchlistInstruments: (input: W.AddWatchlistInstrumentsInput, ro?: RequestOptions) =>
      post("addWatchlistInstruments", W.addIn, input, W.ack, false, ro),
    removeWatchlistInstruments: (input: W.RemoveWatchlistInstrumentsInput, ro?: RequestOptions) =>
      post("removeWatchlistInstruments", W.removeIn, input, W.ack, false, ro),
    /** Sets the sort of each named instrument (the SDKs' update: located by symbol and category); the list answers highest first. */
    updateWatchlistInstruments: (input: W.ReorderWatchlistInstrumentsInput, ro?: RequestOptions) =>
      post("updateWatchlistInstruments", W.reorderIn, input, W.ack, false, ro),

    // Market data
    getStockSnapshot: (input: In<typeof K.snapshotIn>, ro?: RequestOptions) =>
      get("getStockSnapshot", K.snapshotIn, input, list(K.snapshot), ro),
    listStockBars: (input: In<typeof K.barsIn>, ro?: RequestOptions) => get("listStockBars", K.barsIn, input, list(K.bar), ro),
    getStockQuotes: (input: In<typeof K.quotesIn>, ro?: RequestOptions) => get("getStockQuotes", K.quotesIn, input, first(K.quotes), ro),
    listStockTicks: (input: In<typeof K.tickIn>, ro?: RequestOptions) => get("listStockTicks", K.tickIn, input, K.ticks, ro),
    listStockFootprints: (input: In<typeof K.footprintIn>, ro?: RequestOptions) =>
      get("listStockFootprints", K.footprintIn, input, list(K.footprint), ro),
    getStockNoiiSnapshot: (input: In<typeof K.noiiIn>, ro?: RequestOptions) =>
      get("getStockNoiiSnapshot", K.noiiIn, input, first(K.noii), ro),
    listStockNoiiBars: (input: In<typeof K.noiiIn>, ro?: RequestOptions) => get("listStockNoiiBars", K.noiiIn, input, list(K.noii), ro),
  };
}

export type BrokerClient = ReturnType<typeof createBrokerClient>;
