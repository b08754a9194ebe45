import "server-only";
import { z } from "zod";
import { decimalOut, opt, tolerantEnum } from "./common";

/**
 * Futures reference data (Market Data API; Python `instrument.get_futures_*`, Java `getFuturesProductClasses`,
 * `getFuturesProductsV2`, `getFuturesInstrumentsV2`, `getFuturesInstrumentsByCode`). Requests carry the SDKs' query
 * parameters; responses are the SDK domain classes' fields (Java `FuturesProductClass`, `FuturesProduct`,
 * `FuturesInstrument`), numbers as decimal strings, everything but the identity optional.
 */
export const FUTURES_CATEGORIES = ["US_FUTURES", "HK_FUTURES"] as const;
export const CONTRACT_TYPES = ["MONTHLY", "MAIN"] as const;

const category = z.enum(FUTURES_CATEGORIES).default("US_FUTURES");
const code = z.string().trim().min(1).max(12);

export const productClassesIn = z.object({ category });
export const productsIn = z.object({ category, product_class_id: z.number().int().min(0).optional() });
export const instrumentsIn = z.object({
  category,
  symbols: z.array(z.string().trim().min(1).max(24)).min(1).max(100).optional(),
  code: code.optional(),
  status: z.enum(["OC", "CO", "NT"]).optional(),
});
export const instrumentsByCodeIn = z.object({ category, code, contract_type: z.enum(CONTRACT_TYPES).optional() });

const classId = z.union([z.number(), z.string()]).transform(String);
export const productClass = z.object({
  product_class_id: classId,
  product_class_name: opt(z.string()),
  product_codes: opt(z.array(z.string())),
});

/** A contract's size and tick, stated by its product and repeated by each of its contracts. */
const contractTerms = {
  size: opt(decimalOut),
  unit: opt(z.string()),
  multiplier: opt(decimalOut),
  min_tick: opt(decimalOut),
};

export const product = z.object({
  code: z.string(),
  name: opt(z.string()),
  product_class_id: opt(classId),
  product_class_name: opt(z.string()),
  exchange_code: opt(z.string()),
  currency: opt(z.string()),
  ...contractTerms,
  settlement: opt(z.string()),
});

export const instrument = z.object({
  symbol: z.string(),
  instrument_id: opt(z.string()),
  contract_id: opt(z.string()),
  code: opt(z.string()),
  name: opt(z.string()),
  exchange_code: opt(z.string()),
  currency: opt(z.string()),
  contract_type: opt(tolerantEnum(CONTRACT_TYPES)),
  contract_month: opt(z.union([z.string(), z.number()]).transform(String)),
  first_trading_date: opt(z.string()),
  last_trading_date: opt(z.string()),
  first_notice_date: opt(z.string()),
  last_notice_date: opt(z.string()),
  settlement_date: opt(z.string()),
  settlement: opt(z.string()),
  ...contractTerms,
  status: opt(tolerantEnum(["OC", "CO", "NT"] as const)),
});

export type ProductsInput = z.input<typeof productsIn>;
export type InstrumentsInput = z.input<typeof instrumentsIn>;
export type InstrumentsByCodeInput = z.input<typeof instrumentsByCodeIn>;
