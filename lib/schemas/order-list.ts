import { z } from "zod";
import { MARKET_CURRENCY, type InstrumentMarket } from "@/lib/instruments";
import { filterValue, listParams, type StateOf } from "@/lib/list-params";

/**
 * The orders blotter's URL state and row type: the page, GET /api/orders, its live changes and the CSV export all
 * parse with these. Enum filters accept any upper-case word, so a status the desk does not know yet can be filtered
 * on too (the toolbar offers the known ones).
 */
const word = filterValue.word;
const day = filterValue.day;

export const ORDER_VIEWS = ["open", "working_today", "filled_today", "failed"] as const;
export type OrderView = (typeof ORDER_VIEWS)[number];
export const ORDER_VIEW_LABELS: Record<OrderView, string> = {
  open: "Open",
  working_today: "Working today",
  filled_today: "Filled today",
  failed: "Rejected or failed",
};

export const orderFilterSchema = z.object({
  view: z.enum(ORDER_VIEWS).optional().catch(undefined),
  /** The virtual account: its id or its account number. */
  account: filterValue.account,
  symbol: filterValue.symbol,
  market: word,
  type: word,
  side: word,
  status: word,
  orderType: word,
  combo: word,
  tif: word,
  /** Placed on or after this day (UTC). */
  from: day,
  /** Placed on or before this day (UTC). */
  to: day,
});
export type OrderFilter = z.infer<typeof orderFilterSchema>;

/** Pages are read as the reader scrolls (a virtualised list), so the size is the size of one read. */
export const orderListParams = listParams({ filters: orderFilterSchema.shape, sizes: [200, 500], defaultSize: 200 });
export type OrderListParams = StateOf<typeof orderListParams>;

/** One blotter row, as the browser gets it: decimals as strings, times as ISO strings. */
export interface OrderRow {
  id: string;
  accountId: string;
  /** The account's number, when the desk's directory knows it. */
  accountNumber: string | null;
  clientOrderId: string;
  orderId: string | null;
  comboType: string | null;
  clientComboOrderId: string | null;
  symbol: string | null;
  market: string | null;
  instrumentType: string | null;
  side: string | null;
  orderType: string | null;
  timeInForce: string | null;
  quantity: string | null;
  totalCashAmount: string | null;
  filledQuantity: string;
  avgFilledPrice: string | null;
  limitPrice: string | null;
  stopPrice: string | null;
  status: string;
  placedAt: string | null;
  listedAt: string;
  updatedAt: string;
  /** The last event applied to the row: the live changes' watermark. */
  seq: number;
  submittedBy: string | null;
}

/** A page of the blotter; `watermark` (first page) is the newest event the answer includes. */
export interface OrderPage {
  rows: OrderRow[];
  nextCursor?: string;
  watermark: number;
}

/** Rows changed after a watermark; `matches` says whether the row still matches the filter. */
export interface OrderChanges {
  rows: (OrderRow & { matches: boolean })[];
  watermark: number;
}

/** The currency an order's prices are in, from its market. */
export function orderCurrency(market: string | null | undefined): string | undefined {
  return market && Object.hasOwn(MARKET_CURRENCY, market) ? MARKET_CURRENCY[market as InstrumentMarket] : undefined;
}
