"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchJson } from "@/components/data-table/fetch-json";
import { ALERT_STATUS_TONES } from "@/components/alerts/alert-labels";
import { ORDER_STATUS_LABELS, ORDER_STATUS_TONES, SIDE_TONES } from "@/components/orders/order-labels";
import { EnumBadge } from "@/components/ui/enum-badge";
import { DetailPanel } from "@/components/ui/panel-state";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { formatDateTime } from "@/lib/format";
import { formatPrice, formatQuantity } from "@/lib/money";
import type { DeskAlert, DeskExecution, DeskOrder, DeskPosition, DeskViewData } from "@/lib/schemas/instrument-desk";
import { orderCurrency } from "@/lib/schemas/order-list";

/**
 * The symbol as the desk's own books have it: open orders and recent executions across accounts, positions of the
 * accounts whose activities the desk has read, alerts on the symbol; each row links to its page. Read from the read
 * model (no upstream call) under the "orders" live root, so an order's notice refreshes it in place.
 */
export function DeskView({ market, symbol }: { market: string; symbol: string }) {
  const m = market.toUpperCase();
  const s = symbol.toUpperCase();
  const query = useQuery({
    queryKey: ["orders", "instrument-desk", m, s],
    queryFn: ({ signal }) => fetchJson<DeskViewData>(`/api/instruments/${encodeURIComponent(m)}/${encodeURIComponent(s)}/desk`, signal),
  });
  const ccy = orderCurrency(m);
  return (
    <DetailPanel title={`${s} in the desk's books`} testId="desk-view" query={query}>
      {(d) => (
        <div className="grid gap-4 2xl:grid-cols-2">
          <Part book={ORDERS} rows={d.orders} ccy={ccy} />
          <Part book={EXECUTIONS} rows={d.executions} ccy={ccy} />
          <Part book={POSITIONS} rows={d.positions} ccy={ccy} />
          <Part book={ALERTS} rows={d.alerts} ccy={ccy} />
        </div>
      )}
    </DetailPanel>
  );
}

/** One of the books: its heading, each row's test id, what it says when empty, a row's key, its columns (in the market's currency). */
interface Book<T> {
  title: string;
  rowTestId: string;
  empty: string;
  rowKey: (row: T) => string;
  columns: (ccy: string | undefined) => RowColumn<T>[];
}
function book<T>(title: string, rowTestId: string, empty: string, rowKey: Book<T>["rowKey"], columns: Book<T>["columns"]): Book<T> {
  return { title, rowTestId, empty, rowKey, columns };
}
const byId = (r: { id: string }) => r.id;

/** A book, absent when the viewer's role may not read it. */
function Part<T>({ book, rows, ccy }: { book: Book<T>; rows: T[] | undefined; ccy: string | undefined }) {
  if (!rows) return null;
  return (
    <section aria-label={book.title} className="flex min-w-0 flex-col gap-1">
      <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {book.title} <span className="font-normal">({rows.length})</span>
      </h3>
      {rows.length === 0 ? (
        <p className="py-2 text-sm text-slate-500">{book.empty}</p>
      ) : (
        <RowsTable columns={book.columns(ccy)} rows={rows} rowKey={book.rowKey} rowProps={() => ({ "data-testid": book.rowTestId })} />
      )}
    </section>
  );
}

const link = "text-blue-800 hover:underline";
const NOWRAP = "whitespace-nowrap";
const MONO = "font-mono text-xs";

/** When the row happened: its time, linking to its page (with a title). */
const when = <T,>(head: string, at: (r: T) => [time: string, href: string, title?: string]): RowColumn<T> => ({
  head,
  className: NOWRAP,
  cell: (r) => {
    const [time, href, title] = at(r);
    return (
      <Link href={href} prefetch={false} className={link} title={title}>
        {formatDateTime(time)}
      </Link>
    );
  },
});

/** An account by its number (its id in the title when the directory does not know it yet), linking to its page. */
const ACCOUNT: RowColumn<{ accountId: string | null; accountNumber: string | null }> = {
  head: "Account",
  className: NOWRAP,
  cell: ({ accountId: id, accountNumber: number }) =>
    id ? (
      <Link href={`/accounts/${encodeURIComponent(id)}`} prefetch={false} className={`${link} ${MONO}`} title={id}>
        {number ?? `${id.slice(0, 8)}…`}
      </Link>
    ) : (
      "—"
    ),
};
/** Who traded the symbol, which way. */
const TRADE: RowColumn<Pick<DeskOrder, "accountId" | "accountNumber" | "symbol" | "side">>[] = [
  ACCOUNT,
  { head: "Symbol", className: MONO, cell: (r) => r.symbol },
  { head: "Side", cell: (r) => <EnumBadge value={r.side} tones={SIDE_TONES} /> },
];

const ORDERS = book<DeskOrder>("Open orders", "desk-order", "No open order in this symbol.", byId, (ccy) => [
  when("Placed (UTC)", (o) => [o.listedAt, `/orders/${o.id}`, `Order ${o.clientOrderId}`]),
  ...TRADE,
  { head: "Type", className: "text-xs", cell: (o) => o.orderType ?? "—" },
  { head: "Qty", numeric: true, cell: (o) => formatQuantity(o.quantity) },
  { head: "Filled", numeric: true, cell: (o) => formatQuantity(o.filledQuantity) },
  { head: "Limit / stop", numeric: true, cell: (o) => (o.limitPrice || o.stopPrice ? formatPrice(o.limitPrice ?? o.stopPrice, ccy) : "—") },
  { head: "Status", cell: (o) => <EnumBadge value={o.status} tones={ORDER_STATUS_TONES} labels={ORDER_STATUS_LABELS} /> },
]);

const EXECUTIONS = book<DeskExecution>("Recent executions", "desk-execution", "No execution in this symbol.", byId, (ccy) => [
  when("Filled (UTC)", (e) => [e.filledAt, `/orders/${e.orderId}`]),
  ...TRADE,
  { head: "Qty", numeric: true, cell: (e) => formatQuantity(e.quantity) },
  { head: "Price", numeric: true, cell: (e) => formatPrice(e.price, ccy) },
]);

const POSITIONS = book<DeskPosition>(
  "Positions (net of the activities read)",
  "desk-position",
  "No account the desk has read holds or moved this symbol.",
  (p) => p.accountId,
  () => [
    ACCOUNT,
    { head: "Net quantity", numeric: true, cell: (p) => formatQuantity(p.quantity) },
    { head: "Activities read up to", className: `text-xs ${NOWRAP} text-slate-600`, cell: (p) => (p.asOf ? formatDateTime(p.asOf) : "—") },
  ],
);

const ALERTS = book<DeskAlert>("Alerts", "desk-alert", "No alert names this symbol.", byId, () => [
  when("Raised (UTC)", (a) => [a.raisedAt, `/alerts/${a.id}`]),
  ACCOUNT,
  { head: "Summary", className: "text-xs", cell: (a) => a.summary },
  { head: "Status", cell: (a) => <EnumBadge value={a.status} tones={ALERT_STATUS_TONES} /> },
]);
