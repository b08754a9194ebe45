import { z } from "zod";
import { ACTIVITY_SUB_TYPES, ACTIVITY_TYPES, INSTRUMENT_TYPES, OPTION_STRATEGIES } from "@/lib/broker-enums";
import { tolerantEnum } from "@/lib/enums";
import { currencyOut, decimalOut } from "@/lib/money";
import { isoTimestamp, opt, type Page } from "@/lib/schemas/wire";

/**
 * An account's balance, positions and activities as the Broker client parses them (facts §5.3, §5.6) and as the
 * detail panels receive them from the GET route handlers: one schema, its output types plain for the browser.
 * Money and quantities are decimal strings; enums are tolerant (unknown values kept raw).
 */
const currencyAsset = z.object({
  currency: currencyOut,
  cash_balance: opt(decimalOut),
  settled_cash: opt(decimalOut),
  unsettled_cash: opt(decimalOut),
  market_value: opt(decimalOut),
  held_amount: opt(decimalOut),
  frozen_amount: opt(decimalOut),
  buying_power: opt(decimalOut),
  unrealized_profit_loss: opt(decimalOut),
  available_withdrawal: opt(decimalOut),
  interests_unpaid: opt(decimalOut),
  init_margin: opt(decimalOut),
});

export const balance = z.object({
  account_id: opt(z.string()),
  total_asset_currency: opt(currencyOut),
  total_asset: opt(decimalOut),
  total_cash_balance: opt(decimalOut),
  total_market_value: opt(decimalOut),
  total_unrealized_profit_loss: opt(decimalOut),
  init_margin: opt(decimalOut),
  account_currency_assets: z
    .array(currencyAsset)
    .nullish()
    .transform((v) => v ?? []),
});

const positionLeg = z.object({
  symbol: opt(z.string()),
  leg_id: opt(z.string()),
  quantity: opt(decimalOut),
  option_type: opt(z.string()),
  option_expire_date: opt(z.string()),
  option_exercise_price: opt(decimalOut),
  option_contract_multiplier: opt(decimalOut),
  option_contract_deliverable: opt(z.string()),
  expiration_type: opt(z.string()),
});

export const position = z.object({
  position_id: z.string(),
  instrument_id: opt(z.string()),
  symbol: z.string(),
  currency: opt(currencyOut),
  market: opt(z.string()),
  quantity: decimalOut,
  instrument_type: opt(tolerantEnum(INSTRUMENT_TYPES)),
  option_strategy: opt(tolerantEnum(OPTION_STRATEGIES)),
  last_price: opt(decimalOut),
  cost_price: opt(decimalOut),
  market_value: opt(decimalOut),
  unrealized_profit_loss: opt(decimalOut),
  legs: opt(z.array(positionLeg)),
});

export const activity = z.object({
  id: z.string(),
  account_id: opt(z.string()),
  account_number: opt(z.string()),
  activity_type: tolerantEnum(ACTIVITY_TYPES),
  activity_sub_type: opt(tolerantEnum(ACTIVITY_SUB_TYPES)),
  currency: opt(z.string()),
  market: opt(z.string()),
  symbol: opt(z.string()),
  quantity: opt(decimalOut),
  trade_date: opt(z.string()),
  net_amount: opt(decimalOut),
  biz_time: opt(isoTimestamp),
  description: opt(z.string()),
});

export type Balance = z.output<typeof balance>;
export type CurrencyAsset = z.output<typeof currencyAsset>;
export type Position = z.output<typeof position>;
export type Activity = z.output<typeof activity>;
export type ActivitiesPage = Page<Activity>;
