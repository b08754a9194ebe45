import "server-only";
import { z } from "zod";
import { CURRENCIES, currencyOut, decimalOut, INSTRUMENT_TYPES, opt, tolerantEnum } from "./common";
import { OPTION_STRATEGIES } from "./orders";

/** Balance and positions (facts §5.3). */
export const accountIdIn = z.object({ account_id: z.string().min(1) });
export const balanceIn = accountIdIn.extend({ total_asset_currency: z.enum(CURRENCIES).optional() });

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
  account_currency_assets: z.array(currencyAsset).nullish().transform((v) => v ?? []),
});

const positionLeg = z.object({
  symbol: opt(z.string()), leg_id: opt(z.string()), quantity: opt(decimalOut), option_type: opt(z.string()),
  option_expire_date: opt(z.string()), option_exercise_price: opt(decimalOut),
  option_contract_multiplier: opt(decimalOut), option_contract_deliverable: opt(z.string()), expiration_type: opt(z.string()),
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

export type Balance = z.output<typeof balance>;
export type Position = z.output<typeof position>;
