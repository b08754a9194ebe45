import "server-only";
import { z } from "zod";
import { dateIn, decimalIn, decimalOut, flexibleBool, isoTimestamp, MARKETS, opt, pageIn, tolerantEnum } from "./common";

/** Instruments, stock locate, corporate actions, option contracts (facts §5.6, spec "Stock instrument"). */
export const INSTRUMENT_CATEGORIES = ["US_STOCK", "HK_STOCK", "CN_STOCK", "US_OPTION"] as const;
export const SUB_CATEGORIES = ["COMMON_STOCK", "ETF", "PREFERRED_STOCK", "WARRANT", "UNITS", "RIGHT"] as const;
export const INSTRUMENT_STATUSES = ["OC", "CO", "NT"] as const;
export const OPTION_TYPES = ["CALL", "PUT"] as const;

export const listStockInstrumentsIn = pageIn.extend({
  symbols: z.array(z.string().min(1)).optional(),
  category: z.enum(["US_STOCK", "HK_STOCK", "CN_STOCK"]).optional(),
  sub_category: z.enum(SUB_CATEGORIES).optional(),
  market: z.enum(MARKETS).optional(),
  status: z.enum(INSTRUMENT_STATUSES).optional(),
});

export const instrument = z.object({
  instrument_id: z.string(),
  symbol: z.string(),
  market: opt(z.string()),
  last_price: opt(decimalOut),
  name: opt(z.string()),
  exchange_code: opt(z.string()),
  category: opt(tolerantEnum(INSTRUMENT_CATEGORIES)),
  sub_category: opt(tolerantEnum(SUB_CATEGORIES)),
  status: opt(tolerantEnum(INSTRUMENT_STATUSES)),
  currency: opt(z.string()),
  lot_size: opt(decimalOut),
  shortable: opt(flexibleBool),
  fractionable: opt(flexibleBool),
  marginable: opt(flexibleBool),
  easy_to_borrow: opt(flexibleBool),
  overnight_trading_supported: opt(flexibleBool),
  margin_requirement_long: opt(decimalOut),
  margin_requirement_short: opt(decimalOut),
  intraday_margin_long: opt(decimalOut),
  intraday_margin_short: opt(decimalOut),
  maintenance_margin_long: opt(decimalOut),
  maintenance_margin_short: opt(decimalOut),
});

export const getStockLocateIn = z.object({
  symbol: z.string().min(1),
  market: z.enum(MARKETS).optional(),
  account_id: z.string().min(1).optional(),
});
export const stockLocate = z.object({
  symbol: z.string(),
  shortable: opt(flexibleBool),
  short_type: opt(tolerantEnum(["ETB", "HTB"] as const)),
  available_num: opt(decimalOut),
  short_interest_rate: opt(decimalOut),
});

export const getCorporateActionIn = z.object({ event_id: z.string().min(1) });
const payout = z.object({
  type: opt(z.string()),
  pay_type: opt(z.string()),
  currency: opt(z.string()),
  amount: opt(decimalOut),
  from_ratio: opt(decimalOut),
  to_ratio: opt(decimalOut),
});
export const corporateAction = z.object({
  event_id: z.string(),
  event_type: tolerantEnum(["DIVIDEND", "FORWARD_SPLIT", "REVERSE_SPLIT", "MERGER", "SPIN_OFF"] as const),
  event_version: opt(z.union([z.string(), z.number()]).transform(String)),
  instrument_id: opt(z.string()),
  category: opt(z.string()),
  record_date: opt(z.string()),
  ex_date: opt(z.string()),
  payment_date: opt(z.string()),
  final_pay_date: opt(z.string()),
  from: opt(z.object({ symbol: opt(z.string()), name: opt(z.string()), exchange: opt(z.string()) })),
  to: z
    .array(
      z.object({
        option_number: opt(z.union([z.string(), z.number()]).transform(String)),
        description: opt(z.string()),
        default_option_flag: opt(flexibleBool),
        payouts: z
          .array(payout)
          .nullish()
          .transform((v) => v ?? []),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
});

/** Filter names the spec leaves open (expiration / strike bounds) follow the sandbox: *_gte / *_lte. */
export const listOptionContractsIn = pageIn.extend({
  category: z.literal("US_OPTION").default("US_OPTION"),
  root_symbol: z.string().optional(),
  option_symbol: z.string().optional(),
  option_type: z.enum(OPTION_TYPES).optional(),
  status: z.enum(["ACTIVE", "INACTIVE"]).optional(),
  style: z.enum(["AMERICAN", "EUROPEAN"]).optional(),
  expiration_date: dateIn.optional(),
  expiration_date_gte: dateIn.optional(),
  expiration_date_lte: dateIn.optional(),
  strike_price_gte: decimalIn.optional(),
  strike_price_lte: decimalIn.optional(),
  ppind: z.boolean().optional(),
  show_deliverables: z.boolean().optional(),
});

export const optionContract = z.object({
  instrument_id: z.string(),
  symbol: z.string(),
  root_symbol: opt(z.string()),
  option_type: opt(tolerantEnum(OPTION_TYPES)),
  strike_price: opt(decimalOut),
  expiration_date: opt(z.string()),
  style: opt(z.string()),
  status: opt(z.string()),
  ppind: opt(flexibleBool),
  category: opt(z.string()),
  underlying_symbol: opt(z.string()),
  currency: opt(z.string()),
  last_price: opt(decimalOut),
  multiplier: opt(decimalOut),
  deliverables: opt(z.array(z.record(z.string(), z.unknown()))),
  last_trade_time: opt(isoTimestamp),
});

export type ListStockInstrumentsInput = z.input<typeof listStockInstrumentsIn>;
export type Instrument = z.output<typeof instrument>;
export type ListOptionContractsInput = z.input<typeof listOptionContractsIn>;
export type OptionContract = z.output<typeof optionContract>;
