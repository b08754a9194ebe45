import { z } from "zod";
import { filterValue, listParams, type StateOf } from "@/lib/list-params";
import { MOVEMENT_KIND_LABELS, MOVEMENT_REQUEST_KINDS, type MovementRequestKind } from "./movements";

/**
 * The movements list's URL state, row and totals: the page, GET /api/movements and the CSV export parse with these.
 * Status accepts any upper-case word, so a status the desk does not know yet can be filtered on too.
 */
const word = filterValue.word;
const day = filterValue.day;

/** The upstream's statuses, then those the desk's approvals write before (or instead of) sending. */
export const MOVEMENT_STATUSES = [
  "SUBMITTED",
  "COMPLETED",
  "REJECTED",
  "FAILED",
  "CANCELED",
  "AWAITING_APPROVAL",
  "DECLINED",
  "WITHDRAWN",
  "EXPIRED",
] as const;
/** Statuses after which nothing changes any more. */
export const FINAL_STATUSES = ["COMPLETED", "CANCELED", "REJECTED", "FAILED", "DECLINED", "WITHDRAWN", "EXPIRED"] as const;
/**
 * One word per meaning across the desk (the wire values stay as they are): "Rejected" is the upstream's refusal of
 * a request it was sent (REJECTED here and on orders); a four-eyes request a checker turned down is "Rejected by
 * approver" (DECLINED, written by the desk when an approval request is rejected: the approvals pages say "Rejected"
 * for the same decision), never "Declined".
 */
export const MOVEMENT_STATUS_LABELS: Record<(typeof MOVEMENT_STATUSES)[number], string> = {
  SUBMITTED: "Submitted",
  COMPLETED: "Completed",
  REJECTED: "Rejected",
  FAILED: "Failed",
  CANCELED: "Canceled",
  AWAITING_APPROVAL: "Awaiting approval",
  DECLINED: "Rejected by approver",
  WITHDRAWN: "Withdrawn",
  EXPIRED: "Expired",
};

/** The type filter: a kind, or instant funding narrowed to one direction. */
export const MOVEMENT_TYPES = [
  "CASH_JOURNAL",
  "POSITION_JOURNAL",
  "INSTANT_FUNDING",
  "DEPOSIT",
  "WITHDRAWAL",
  "FX_EXCHANGE",
  "INSTANT_EXCHANGE",
] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];
export const MOVEMENT_TYPE_LABELS: Record<MovementType, string> = {
  ...MOVEMENT_KIND_LABELS,
  INSTANT_FUNDING: "Instant funding (both)",
  DEPOSIT: "Deposit",
  WITHDRAWAL: "Withdrawal",
};

export const MOVEMENT_VIEWS = ["not_final", "awaiting_approval", "completed_today", "failed"] as const;
export type MovementView = (typeof MOVEMENT_VIEWS)[number];
export const MOVEMENT_VIEW_LABELS: Record<MovementView, string> = {
  not_final: "Not final",
  awaiting_approval: "Awaiting approval",
  completed_today: "Completed today",
  failed: "Rejected or failed",
};

export const movementFilterSchema = z.object({
  view: z.enum(MOVEMENT_VIEWS).optional().catch(undefined),
  type: z.enum(MOVEMENT_TYPES).optional().catch(undefined),
  status: word,
  /** An account id or number: the account of a funding or exchange, or either side of a journal. */
  account: filterValue.account,
  /** The amount's currency or, for an exchange, the currency bought. */
  currency: filterValue.currency,
  /** Who asked for it (the staff user's email, as the desk records it). */
  requester: z.string().trim().toLowerCase().min(1).max(254).optional().catch(undefined),
  /** Created on or after this day (UTC). */
  from: day,
  /** Created on or before this day (UTC). */
  to: day,
});
export type MovementFilter = z.infer<typeof movementFilterSchema>;

export const movementListParams = listParams({ filters: movementFilterSchema.shape, sizes: [25, 50, 100], defaultSize: 50 });
export type MovementListParams = StateOf<typeof movementListParams>;

/** One movement, as the browser gets it: decimals as strings, times as ISO strings. */
export interface MovementRow {
  id: string;
  kind: string;
  clientRequestId: string;
  requestId: string | null;
  accountId: string | null;
  fromAccount: string | null;
  toAccount: string | null;
  /** Instant funding: DEPOSIT or WITHDRAWAL. */
  direction: string | null;
  amount: string | null;
  currency: string | null;
  toAmount: string | null;
  toCurrency: string | null;
  fxRate: string | null;
  instrumentType: string | null;
  market: string | null;
  symbol: string | null;
  quantity: string | null;
  status: string;
  reason: string | null;
  requestedBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** The account numbers the desk knows (the account directory), beside the ids. */
  accountNumber: string | null;
  fromAccountNumber: string | null;
  toAccountNumber: string | null;
}

/** A sum of amounts in one currency, and how many movements make it. */
export interface CurrencyTotal {
  currency: string;
  amount: string;
  count: number;
}

/** Totals over the whole filter (every page): amounts by currency; exchanges' bought side; position journals. */
export interface MovementTotals {
  count: number;
  /** Of them, completed: only their amounts are summed (held, rejected or pending amounts moved nothing). */
  completed: number;
  /** Completed amounts by what they are and currency (a deposit and a withdrawal are never summed together). */
  byType: TypeTotal[];
  /** Completed FX requests and instant exchanges: what was bought, by currency (what was sold is in `byType`). */
  exchangedTo: CurrencyTotal[];
  positionJournals: number;
}

/** One line of the totals: a kind (instant funding by its direction: DEPOSIT or WITHDRAWAL) in one currency. */
export interface TypeTotal extends CurrencyTotal {
  kind: string;
  direction: string | null;
}

export interface MovementPage {
  rows: MovementRow[];
  nextCursor?: string;
}

export function isMovementKind(v: string): v is MovementRequestKind {
  return (MOVEMENT_REQUEST_KINDS as readonly string[]).includes(v);
}

/** The detail page of a movement (the forms and the approvals link here). */
export const movementHref = (kind: string, clientRequestId: string) =>
  `/movements/${encodeURIComponent(kind)}/${encodeURIComponent(clientRequestId)}`;

/** What a row is, in words: "Deposit", "Cash journal"…; an unknown kind raw. */
export function movementTypeLabel(kind: string, direction: string | null): string {
  if (kind === "INSTANT_FUNDING" && (direction === "DEPOSIT" || direction === "WITHDRAWAL")) return MOVEMENT_TYPE_LABELS[direction];
  return isMovementKind(kind) ? MOVEMENT_KIND_LABELS[kind] : `unknown (${kind})`;
}
