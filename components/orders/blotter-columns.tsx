import type { ReactNode } from "react";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { EnumBadge } from "@/components/ui/enum-badge";
import { formatMoney, formatPrice, formatQuantity } from "@/lib/money";
import { orderCurrency, type OrderRow } from "@/lib/schemas/order-list";
import {
  COMBO_TYPE_LABELS,
  COMBO_TYPE_SHORT,
  ORDER_STATUS_LABELS,
  ORDER_STATUS_TONES,
  SIDE_TONES,
  TIME_IN_FORCE_LABELS,
} from "./order-labels";
import { ORDER_TYPE_LABELS } from "@/lib/schemas/order-type-labels";
import { AccountRef } from "@/components/accounts/account-ref";
import { RowChangeButton } from "./row-change";

/**
 * The blotter's columns. Rows are virtualised (only those on screen exist), so the table is a CSS grid of fixed
 * column widths rather than a <table> whose widths would follow the rows rendered.
 */
export interface BlotterColumn {
  id: string;
  label: string;
  width: number;
  numeric?: boolean;
  /** The width it may grow to when the screen has room (the account id and an option's symbol, shown whole there). */
  grow?: number;
  cell: (r: OrderRow) => ReactNode;
}

/** "11-23 07:18:11": the year and zone are in the header. */
const shortTime = (iso: string | null) => (iso ? `${iso.slice(5, 10)} ${iso.slice(11, 19)}` : "—");
const price = (v: string | null, r: OrderRow) =>
  v === null ? <span className="text-slate-300">—</span> : formatPrice(v, orderCurrency(r.market));
/** The order type in words ("Stop limit", not STOP_LOSS_LIMIT); a type the desk does not know, as it came. */
const typeLabel = (v: string | null) => (v ? (ORDER_TYPE_LABELS[v] ?? v) : "—");

export const BLOTTER_COLUMNS: BlotterColumn[] = [
  {
    id: "placed",
    label: "Placed (UTC)",
    width: 108,
    cell: (r) => (
      // A plain link to the order (no prefetch, nothing to set up per row while scrolling); the grid's click handler
      // navigates in the app.
      <a
        href={`/orders/${r.id}`}
        className={`hover:underline ${r.placedAt ? "text-slate-800" : "text-slate-400"}`}
        title={r.placedAt ? "Open the order" : "Placing time not known yet: first heard of"}
      >
        {shortTime(r.placedAt ?? r.listedAt)}
      </a>
    ),
  },
  {
    id: "account",
    label: "Account",
    width: 100,
    grow: 240,
    cell: (r) => <AccountRef id={r.accountId} number={r.accountNumber} />,
  },
  {
    id: "symbol",
    label: "Symbol",
    width: 72,
    // An option's symbol (OCC: root, expiry, right, strike) is about 20 characters: whole where the screen has room.
    grow: 176,
    // The instrument's page; a click anywhere else on the row opens the order.
    cell: (r) => <SymbolLink market={r.market} symbol={r.symbol} />,
  },
  { id: "side", label: "Side", width: 56, cell: (r) => <EnumBadge value={r.side} tones={SIDE_TONES} /> },
  {
    id: "type",
    label: "Type · TIF",
    width: 112,
    cell: (r) => (
      <span
        className="truncate"
        title={[typeLabel(r.orderType), r.timeInForce && (TIME_IN_FORCE_LABELS[r.timeInForce] ?? r.timeInForce)].join(" · ")}
      >
        {typeLabel(r.orderType)} <span className="text-slate-500">{r.timeInForce ?? ""}</span>
      </span>
    ),
  },
  {
    id: "combo",
    label: "Combo",
    width: 64,
    cell: (r) =>
      r.comboType && r.comboType !== "NORMAL" ? (
        <abbr
          className="text-slate-600 no-underline"
          title={COMBO_TYPE_LABELS[r.comboType] ?? r.comboType}
          aria-label={COMBO_TYPE_LABELS[r.comboType] ?? r.comboType}
          data-testid="blotter-combo"
        >
          {COMBO_TYPE_SHORT[r.comboType] ?? r.comboType}
        </abbr>
      ) : null,
  },
  {
    id: "quantity",
    label: "Qty",
    width: 64,
    numeric: true,
    cell: (r) =>
      r.quantity ? formatQuantity(r.quantity) : r.totalCashAmount ? formatMoney(r.totalCashAmount, orderCurrency(r.market)) : "—",
  },
  { id: "filled", label: "Filled", width: 60, numeric: true, cell: (r) => formatQuantity(r.filledQuantity) },
  { id: "limit", label: "Limit", width: 96, numeric: true, cell: (r) => price(r.limitPrice, r) },
  { id: "stop", label: "Stop", width: 92, numeric: true, cell: (r) => price(r.stopPrice, r) },
  { id: "avg", label: "Avg fill", width: 96, numeric: true, cell: (r) => price(r.filledQuantity === "0" ? null : r.avgFilledPrice, r) },
  {
    id: "status",
    label: "Status",
    width: 100,
    cell: (r) => <EnumBadge value={r.status} tones={ORDER_STATUS_TONES} labels={ORDER_STATUS_LABELS} />,
  },
  // Replace and cancel without leaving the blotter (row-change.tsx): only for staff who may, on open orders.
  { id: "change", label: "", width: 36, cell: (r) => <RowChangeButton row={r} /> },
];

/** Fixed widths; the account and symbol columns grow to show them whole, and the last column takes what is left. */
export const BLOTTER_GRID = BLOTTER_COLUMNS.map((c, i) =>
  c.grow ? `minmax(${c.width}px, ${c.grow}px)` : i === BLOTTER_COLUMNS.length - 1 ? `minmax(${c.width}px, 1fr)` : `${c.width}px`,
).join(" ");
export const BLOTTER_WIDTH = BLOTTER_COLUMNS.reduce((w, c) => w + c.width, 0);
