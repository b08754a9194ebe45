import type { OrderRow } from "./order-list";

/** One order as the detail page gets it from the read model (plain JSON: decimals as strings, times ISO). */
export interface OrderFee {
  type?: string;
  actual_value?: string;
  receivable_value?: string;
}

export interface OrderLeg {
  id?: string;
  symbol?: string;
  side?: string;
  quantity?: string;
  option_type?: string;
  strike_price?: string;
  option_expire_date?: string;
  instrument_type?: string;
  market?: string;
  multiplier?: string;
  deliverables?: unknown;
}

export interface OrderFull extends OrderRow {
  category: string | null;
  instrumentId: string | null;
  expireDate: string | null;
  entrustType: string | null;
  tradingSession: string | null;
  optionStrategy: string | null;
  legs: OrderLeg[] | null;
  reason: string | null;
  commission: string | null;
  receivableCommission: string | null;
  fees: OrderFee[] | null;
  filledAt: string | null;
  detailAt: string | null;
  detailWanted: boolean;
}

/** One change of the order (order_events), with the stored event it came from. */
export interface OrderTimelineEntry {
  seq: number;
  scene: string;
  status: string | null;
  filledQuantity: string | null;
  reason: string | null;
  at: string;
  source: string | null;
  eventType: string | null;
  payload: unknown;
}

export interface OrderExecutionRow {
  key: string;
  quantity: string;
  price: string;
  commission: string | null;
  receivableCommission: string | null;
  fees: OrderFee[] | null;
  filledAt: string;
}

/** A replace or cancel staff sent from the desk (the audit trail's entry): who, when, why, and what the desk was told. */
export interface OrderStaffChange {
  seq: number;
  at: string;
  action: "orders.replace" | "orders.cancel";
  actor: string | null;
  role: string | null;
  reasonCode: string | null;
  reasonText: string | null;
  outcome: "success" | "failure" | "denied";
  errorCode: string | null;
}

export interface OrderDetail {
  order: OrderFull;
  /** Replaces and cancels sent from the desk, newest first. */
  changes: OrderStaffChange[];
  /** The members of its combo group (client_combo_order_id), itself included; empty for a plain order. */
  group: OrderRow[];
  timeline: OrderTimelineEntry[];
  executions: OrderExecutionRow[];
}

/** Scenes that answer a replace or a cancel. */
export const MODIFY_OUTCOMES = ["MODIFY_SUCCESS", "MODIFY_FAILED"] as const;
export const CANCEL_OUTCOMES = ["CANCEL_SUCCESS", "CANCEL_FAILED"] as const;
