/**
 * Enumerations of the Broker API wire format (facts §5.4), shared by the form schemas, the typed client and the
 * sandbox so that the three cannot disagree. Plain data: safe for browser code.
 */
export const ACCOUNT_TYPES = ["CASH", "MARGIN"] as const;
export const ACCOUNT_STATUSES = ["CREATED", "ACTIVE", "SUSPENDED", "RESTRICTED", "FROZEN", "CLOSED"] as const;
export const TRADING_PERMISSIONS = [
  "US_STOCK_NORMAL",
  "US_STOCK_FRACTIONAL",
  "US_STOCK_OVERNIGHT",
  "US_OPTION_NORMAL",
  "HK_STOCK_NORMAL",
  "HK_STOCK_FRACTIONAL",
  "CN_STOCK_NORMAL",
] as const;
export const OPTION_LEVELS = ["LV1", "LV2", "LV3", "LV4"] as const;
export const ID_TYPES = ["ID_CARD", "PASSPORT", "CERT_INCORP", "LEI", "OTHER_OFFICIAL_ID_DOC"] as const;

/** The upstream's currencies and how many decimals an amount in each may carry. */
export const CURRENCY_DECIMALS = { USD: 2, HKD: 2, CNH: 2 } as const;
export type Currency = keyof typeof CURRENCY_DECIMALS;
export const CURRENCIES = Object.keys(CURRENCY_DECIMALS) as [Currency, ...Currency[]];

export const MARKETS = ["US", "HK", "CN"] as const;
export const INSTRUMENT_TYPES = ["EQUITY", "OPTION"] as const;
export const REQUEST_STATUSES = ["SUBMITTED", "CANCELED", "REJECTED", "FAILED", "COMPLETED"] as const;
export const OPTION_STRATEGIES = [
  "SINGLE",
  "COVERED_STOCK",
  "STRADDLE",
  "STRANGLE",
  "VERTICAL",
  "CALENDAR",
  "DIAGONAL",
  "COLLAR_WITH_STOCK",
  "BUTTERFLY",
  "CONDOR",
  "IRON_BUTTERFLY",
  "IRON_CONDOR",
  "RATIO",
] as const;
export const ACTIVITY_TYPES = [
  "ADJUSTMENT",
  "ALLOCATION",
  "DEPOSIT",
  "DIVIDENDS",
  "EXECUTION",
  "FEES",
  "INTERESTS",
  "JOURNAL",
  "OPTION_EA",
  "REORGANIZATION",
  "SUBSCRIBE",
  "TAX",
  "TRADE",
  "TRANSFER",
  "WITHDRAW",
  "OTHER",
] as const;
export const ACTIVITY_SUB_TYPES = ["OPTION_TRADE", "FUND_TRADE", "OTHER"] as const;

/** Orders (facts §5.1–5.2). */
export const COMBO_TYPES = ["NORMAL", "MASTER", "STOP_PROFIT", "STOP_LOSS", "OTO", "OCO", "OTOCO"] as const;
export const ORDER_TYPES = [
  "LIMIT",
  "MARKET",
  "STOP_LOSS",
  "STOP_LOSS_LIMIT",
  "ENHANCED_LIMIT",
  "AT_AUCTION",
  "AT_AUCTION_LIMIT",
  "MARKET_ON_OPEN",
  "MARKET_ON_CLOSE",
  "TRAILING_STOP_LOSS",
  "TRAILING_STOP_LOSS_LIMIT",
  "TOUCH_MKT",
  "TOUCH_LMT",
  "ODD_LOT_LIMIT",
] as const;
export const TIME_IN_FORCE = ["DAY", "GTC", "GTD"] as const;
export const SIDES = ["BUY", "SELL", "SHORT"] as const;
export const ORDER_STATUSES = ["PENDING", "SUBMITTED", "CANCELLED", "FILLED", "FAILED", "PARTIAL_FILLED"] as const;
/** Statuses in which an order can still be replaced or cancelled. */
export const OPEN_ORDER_STATUSES = ["PENDING", "SUBMITTED", "PARTIAL_FILLED"] as const;

/** Order types each market accepts (facts §5.1, spec's per-market table); options: LIMIT, STOP_LOSS, STOP_LOSS_LIMIT. */
const STOP_AND_TOUCH = [
  "STOP_LOSS",
  "STOP_LOSS_LIMIT",
  "TRAILING_STOP_LOSS",
  "TRAILING_STOP_LOSS_LIMIT",
  "TOUCH_MKT",
  "TOUCH_LMT",
] as const;
export const ORDER_TYPES_BY_MARKET = {
  US: ["LIMIT", "MARKET", ...STOP_AND_TOUCH, "MARKET_ON_OPEN", "MARKET_ON_CLOSE"],
  HK: ["LIMIT", "MARKET", "ENHANCED_LIMIT", "AT_AUCTION", "AT_AUCTION_LIMIT", "ODD_LOT_LIMIT", ...STOP_AND_TOUCH],
  CN: ["LIMIT", "AT_AUCTION_LIMIT"],
  OPTION: ["LIMIT", "STOP_LOSS", "STOP_LOSS_LIMIT"],
} as const satisfies Record<string, readonly string[]>;
