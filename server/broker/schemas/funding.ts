import "server-only";
import { z } from "zod";
import {
  clientId,
  currencyIn,
  currencyOut,
  decimalOut,
  INSTRUMENT_TYPES,
  isoTimestamp,
  MARKETS,
  opt,
  positiveDecimalIn,
  requestRecord,
  tolerantEnum,
} from "./common";

/** FX, instant exchange, instant funding (facts §5.5) and journals. All creates are keyed by client_request_id. */
export const fxRateIn = z.object({ from_currency: currencyIn, to_currency: currencyIn });
export const fxRate = z.object({
  from_currency: currencyOut,
  to_currency: currencyOut,
  fx_rate: decimalOut,
  rate_effective_time: opt(isoTimestamp),
  rate_expire_time: opt(isoTimestamp),
});

/** Detail lookups of every funding / journal request. For journals `account_id` is the from-account. */
export const requestDetailIn = z.object({ account_id: z.string().min(1), client_request_id: clientId });

export const createFxIn = z.object({
  account_id: z.string().min(1),
  client_request_id: clientId,
  from_amount: positiveDecimalIn,
  from_currency: currencyIn,
  to_currency: currencyIn,
});
export const fxRequest = z.object({
  ...requestRecord,
  fx_id: z.string(),
  from_amount: opt(decimalOut),
  from_currency: opt(currencyOut),
  to_amount: opt(decimalOut),
  to_currency: opt(currencyOut),
  fx_rate: opt(decimalOut),
});

export const createInstantExchangeIn = createFxIn.extend({ to_amount: positiveDecimalIn });
export const instantExchange = z.object({
  ...requestRecord,
  instant_exchange_id: z.string(),
  from_amount: opt(decimalOut),
  to_amount: opt(decimalOut),
  from_currency: opt(currencyOut),
  to_currency: opt(currencyOut),
});

export const createInstantFundingIn = z.object({
  account_id: z.string().min(1),
  client_request_id: clientId,
  type: z.enum(["DEPOSIT", "WITHDRAWAL"]),
  amount: positiveDecimalIn,
  currency: currencyIn,
});
export const instantFunding = z.object({
  ...requestRecord,
  instant_funding_id: z.string(),
  type: opt(tolerantEnum(["DEPOSIT", "WITHDRAWAL"] as const)),
  amount: opt(decimalOut),
  currency: opt(currencyOut),
});

export const createCashJournalIn = z.object({
  from_account: z.string().min(1),
  to_account: z.string().min(1),
  client_request_id: clientId,
  amount: positiveDecimalIn,
  currency: currencyIn,
});
export const cashJournal = z.object({
  ...requestRecord,
  journal_id: z.string(),
  from_account: opt(z.string()),
  to_account: opt(z.string()),
  amount: opt(decimalOut),
  currency: opt(currencyOut),
});

export const createPositionJournalIn = z.object({
  from_account: z.string().min(1),
  to_account: z.string().min(1),
  client_request_id: clientId,
  instrument_type: z.enum(INSTRUMENT_TYPES),
  market: z.enum(MARKETS),
  symbol: z.string().min(1),
  quantity: positiveDecimalIn,
});
export const positionJournal = z.object({
  ...requestRecord,
  journal_id: z.string(),
  from_account: opt(z.string()),
  to_account: opt(z.string()),
  instrument_type: opt(tolerantEnum(INSTRUMENT_TYPES)),
  market: opt(z.string()),
  symbol: opt(z.string()),
  quantity: opt(decimalOut),
});

export type FxRateInput = z.input<typeof fxRateIn>;
export type RequestDetailInput = z.input<typeof requestDetailIn>;
