import { z } from "zod";
import { isDeskDate } from "@/lib/format";

/**
 * Account statements and trade confirmations: the period and day a download names (route parameters and the bulk
 * run's form), and the documents' shapes as the account page and the bulk page receive them. Periods are whole UTC
 * days, both ends included; amounts are decimal strings.
 */
export const MAX_STATEMENT_DAYS = 366;

const day = z.string().trim().refine(isDeskDate, "must be a date as YYYY-MM-DD");

/** Days between two yyyy-mm-dd dates (b − a). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** Today's UTC date as yyyy-mm-dd. */
export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);

/** A period's rules: the right way round, at most a year, not starting in the future. */
function periodRules(p: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (!isDeskDate(p.from) || !isDeskDate(p.to)) return;
  if (p.to < p.from) ctx.addIssue({ code: "custom", path: ["to"], message: "must be on or after the start" });
  else if (daysBetween(p.from, p.to) >= MAX_STATEMENT_DAYS)
    ctx.addIssue({ code: "custom", path: ["to"], message: `must be within ${MAX_STATEMENT_DAYS} days of the start` });
  if (p.from > utcToday()) ctx.addIssue({ code: "custom", path: ["from"], message: "must not be in the future" });
}

/** A period (the bulk run's form and action too). */
export const statementPeriodSchema = z.object({ from: day, to: day }).superRefine(periodRules);
export type StatementPeriod = z.infer<typeof statementPeriodSchema>;

const accountId = z.string().trim().min(1).max(64);

/** GET /api/accounts/{accountId}/statement/{pdf,csv}?from&to */
export const statementParamsSchema = z.object({ accountId, from: day, to: day }).superRefine(periodRules);

/** GET /api/accounts/{accountId}/confirmations/{date}/{pdf,csv} */
export const confirmationParamsSchema = z.object({ accountId, date: day });

/** GET /api/accounts/{accountId}/confirmations: the account's execution days, newest first. */
export const confirmationDaysParamsSchema = z.object({ accountId });

/** GET /api/statements/runs/{runId}/zip */
export const statementRunParamsSchema = z.object({ runId: z.coerce.number().int().positive() });

/** One currency's figures: opening + the period's activity = closing; `byType` sums the period by activity type. */
export interface StatementCurrency {
  currency: string;
  opening: string;
  credits: string;
  debits: string;
  closing: string;
  byType: { type: string; amount: string }[];
}

export interface StatementCashLine {
  at: string;
  type: string;
  subType: string | null;
  description: string | null;
  symbol: string | null;
  quantity: string | null;
  currency: string;
  amount: string;
  /** The currency's balance after this line. */
  balance: string;
}

export interface StatementTrade {
  at: string;
  orderId: string | null;
  clientOrderId: string;
  market: string | null;
  symbol: string | null;
  side: string | null;
  quantity: string;
  price: string;
  currency: string;
  /** quantity × price × the contract multiplier. */
  gross: string;
  commission: string;
  fees: string;
  /** What the account received (positive) or paid (negative): −gross for a buy, +gross for a sell, less charges. */
  net: string;
}

export interface StatementPosition {
  market: string | null;
  symbol: string;
  quantity: string;
}

export interface Statement {
  accountId: string;
  accountNumber: string | null;
  from: string;
  to: string;
  /** The period as instants: [start, end). */
  start: string;
  end: string;
  /** The desk's copy of the account's activities is complete up to this moment (null: never read). */
  activitiesAsOf: string | null;
  /** False when the period ends after `activitiesAsOf`: later activities are not in the figures yet. */
  complete: boolean;
  currencies: StatementCurrency[];
  cash: StatementCashLine[];
  trades: StatementTrade[];
  /** Trades' totals per currency. */
  tradeTotals: { currency: string; gross: string; commission: string; fees: string; net: string }[];
  positions: StatementPosition[];
  /**
   * Currencies where the period's executions (the books' trades, net) and its TRADE cash lines (the activities copy)
   * do not sum to the same: executions the desk did not receive, or trade activities the sweep has not read.
   */
  tradeMismatches: { currency: string; executions: string; activities: string }[];
  generatedAt: string;
}

export interface TradeConfirmation {
  accountId: string;
  accountNumber: string | null;
  date: string;
  trades: StatementTrade[];
  totals: Statement["tradeTotals"];
  generatedAt: string;
}

export interface ExecutionDay {
  date: string;
  executions: number;
}

export interface StatementRun {
  id: number;
  from: string;
  to: string;
  status: "queued" | "running" | "done" | "failed";
  requestedBy: string;
  requestedAt: string;
  finishedAt: string | null;
  total: number | null;
  done: number;
  zipBytes: number | null;
  lastError: string | null;
}
