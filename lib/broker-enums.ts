/**
 * Enumerations of the Broker API wire format (facts §5.4), shared by the form schemas, the typed client and the
 * sandbox so that the three cannot disagree. Plain data: safe for browser code.
 */
export const ACCOUNT_TYPES = ["CASH", "MARGIN"] as const;
export const ACCOUNT_STATUSES = ["CREATED", "ACTIVE", "SUSPENDED", "RESTRICTED", "FROZEN", "CLOSED"] as const;
export const TRADING_PERMISSIONS = [
  "US_STOCK_NORMAL", "US_STOCK_FRACTIONAL", "US_STOCK_OVERNIGHT", "US_OPTION_NORMAL",
  "HK_STOCK_NORMAL", "HK_STOCK_FRACTIONAL", "CN_STOCK_NORMAL",
] as const;
export const OPTION_LEVELS = ["LV1", "LV2", "LV3", "LV4"] as const;
export const ID_TYPES = ["ID_CARD", "PASSPORT", "CERT_INCORP", "LEI", "OTHER_OFFICIAL_ID_DOC"] as const;
