import type { Tone } from "@/components/ui/badge";

/** How order enums look: known values coloured, anything else shown raw by EnumBadge. */
export const ORDER_STATUS_TONES: Record<string, Tone> = {
  PENDING: "slate",
  SUBMITTED: "blue",
  PARTIAL_FILLED: "amber",
  FILLED: "green",
  CANCELLED: "slate",
  FAILED: "red",
};
export const ORDER_STATUS_LABELS: Record<string, string> = {
  PENDING: "Pending",
  SUBMITTED: "Working",
  PARTIAL_FILLED: "Partly filled",
  FILLED: "Filled",
  CANCELLED: "Cancelled",
  FAILED: "Failed",
};
export const SIDE_TONES: Record<string, Tone> = { BUY: "green", SELL: "red", SHORT: "amber" };

/** What happened to an order, in words (the upstream's scene types, facts §5, and the desk's own). */
export const ORDER_SCENE_LABELS: Record<string, string> = {
  FILLED: "Partly filled",
  FINAL_FILLED: "Filled",
  PLACE_FAILED: "Placing refused",
  MODIFY_SUCCESS: "Replaced",
  MODIFY_FAILED: "Replace refused",
  CANCEL_SUCCESS: "Cancelled",
  CANCEL_FAILED: "Cancel refused",
  SNAPSHOT: "Read from the broker",
  SUBMITTED_BY_DESK: "Sent from the desk",
};

/** The desk's two changes of an order, as the staff-changes panel names them. */
export const STAFF_CHANGE_LABELS: Record<string, string> = { "orders.replace": "Replace", "orders.cancel": "Cancel" };

/** The order's terms in words (the order page's fields). */
export const TIME_IN_FORCE_LABELS: Record<string, string> = { DAY: "Day", GTC: "Good till cancelled", GTD: "Good till date" };
export const ENTRUST_LABELS: Record<string, string> = { QTY: "Quantity", AMOUNT: "Cash amount" };
export const SIDE_LABELS: Record<string, string> = { BUY: "Buy", SELL: "Sell", SHORT: "Sell short" };
export const COMBO_TYPE_LABELS: Record<string, string> = {
  NORMAL: "Single order",
  MASTER: "Main order (take-profit / stop-loss)",
  STOP_PROFIT: "Take-profit",
  STOP_LOSS: "Stop-loss",
  OCO: "One cancels other",
  OTO: "One triggers other",
  OTOCO: "One triggers OCO",
};
/**
 * The blotter's combo column: a short form that fits its width whole (the wire's STOP_PROFIT did not), the full
 * words in the abbreviation's title and accessible name.
 */
export const COMBO_TYPE_SHORT: Record<string, string> = {
  MASTER: "Main",
  STOP_PROFIT: "TP",
  STOP_LOSS: "SL",
  OCO: "OCO",
  OTO: "OTO",
  OTOCO: "OTOCO",
};
export const INSTRUMENT_TYPE_LABELS: Record<string, string> = { EQUITY: "Stock", OPTION: "Option" };
