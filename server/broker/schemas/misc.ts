import "server-only";
import { z } from "zod";
import {
  clientId,
  decimalOut,
  flexibleBool,
  INSTRUMENT_TYPES,
  MARKETS,
  opt,
  positiveDecimalIn,
  REQUEST_STATUSES,
  requestRecord,
  tolerantEnum,
} from "./common";

/** Master data (trade calendar), option exercise, and the token / config endpoints. */
export const tradeCalendarIn = z.object({
  market: z.enum(MARKETS),
  instrument_type: z.enum(INSTRUMENT_TYPES).optional(),
  year: z.number().int().min(1990).max(2100).optional(),
  start_date: z.string().optional(),
  end_date: z.string().optional(),
});
export const tradeCalendarDay = z.object({
  date: z.string(),
  settlement_date: opt(z.string()),
  is_trading_day: opt(flexibleBool),
  is_early_close: opt(flexibleBool),
  is_settlement_day: opt(flexibleBool),
});

/** Option exercise: body not published by the spec; these fields are ours and keyed by client_request_id. */
export const exerciseOptionIn = z.object({
  account_id: z.string().min(1),
  client_request_id: clientId,
  symbol: z.string().min(1),
  quantity: positiveDecimalIn,
  exercise_type: z.enum(["EXERCISE", "DO_NOT_EXERCISE"]).default("EXERCISE"),
});
export const optionExercise = z.object({
  ...requestRecord,
  // The answer's body is not published either: its status may be missing.
  status: opt(tolerantEnum(REQUEST_STATUSES)),
  exercise_id: opt(z.string()),
  symbol: opt(z.string()),
  quantity: opt(decimalOut),
  exercise_type: opt(z.string()),
});

export const TOKEN_STATUSES = ["PENDING", "NORMAL", "EXPIRED", "INVALID"] as const;
export const upstreamConfigResponse = z.object({ token_check_enabled: flexibleBool.default(true) });
/** The SDK treats a missing token, expires or status as an error; so do we. `expires` is epoch ms. */
export const tokenResponse = z.object({
  token: z.string().min(1),
  expires: z.union([z.number(), z.string()]).transform((v) => {
    const n = Number(v);
    return Number.isFinite(n) ? new Date(n) : new Date(String(v));
  }),
  status: tolerantEnum(TOKEN_STATUSES),
});

export type TradeCalendarInput = z.input<typeof tradeCalendarIn>;
export type ExerciseOptionInput = z.input<typeof exerciseOptionIn>;
