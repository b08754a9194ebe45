"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { ALERT_STATUS_TONES } from "@/components/alerts/alert-labels";
import { ORDER_STATUS_LABELS, ORDER_STATUS_TONES, SIDE_TONES } from "@/components/orders/order-labels";
import { EnumBadge } from "@/components/ui/enum-badge";
import { table } from "@/components/ui/page";
import { DetailPanel } from "@/components/ui/panel-state";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import type { DeskViewData } from "@/lib/schemas/instrument-desk";
import { orderCurrency } from "@/lib/schemas/order-list";

/**
 * The symbol as the desk's own books have it: open orders and recent executions across accounts, positions of the
 * accounts whose activities the desk has read, alerts on the symbol; each row links to its page. Read from the read
 * model (no upstream call) under the "orders" live root, so an order's notice refreshes it in place.
 */
const link = "text-blue-800 hover:underline";

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
          {d.orders ? (
            <Part title="Open orders" testId="desk-orders" empty="No open order in this symbol." count={d.orders.length}>
              <Table head={["Placed (UTC)", "Account", "Symbol", "Side", "Type", ["Qty"], ["Filled"], ["Limit / stop"], "Status"]}>
                {d.orders.map((o) => (
                  <tr key={o.id} data-testid="desk-order">
                    <td className={`${table.td} whitespace-nowrap`}>
                      <Link href={`/orders/${o.id}`} prefetch={false} className={link} title={`Order ${o.clientOrderId}`}>
                        {formatDateTime(o.listedAt)}
                      </Link>
                    </td>
                    <Account id={o.accountId} number={o.accountNumber} />
                    <td className={`${table.td} font-mono text-xs`}>{o.symbol}</td>
                    <td className={table.td}>
                      <EnumBadge value={o.side} tones={SIDE_TONES} />
                    </td>
                    <td className={`${table.td} text-xs`}>{o.orderType ?? "—"}</td>
                    <Num>{formatQuantity(o.quantity)}</Num>
                    <Num>{formatQuantity(o.filledQuantity)}</Num>
                    <Num>{o.limitPrice || o.stopPrice ? formatMoney(o.limitPrice ?? o.stopPrice, ccy) : "—"}</Num>
                    <td className={table.td}>
                      <EnumBadge value={o.status} tones={ORDER_STATUS_TONES} labels={ORDER_STATUS_LABELS} />
                    </td>
                  </tr>
                ))}
              </Table>
            </Part>
          ) : null}
          {d.executions ? (
            <Part title="Recent executions" testId="desk-executions" empty="No execution in this symbol." count={d.executions.length}>
              <Table head={["Filled (UTC)", "Account", "Symbol", "Side", ["Qty"], ["Price"]]}>
                {d.executions.map((e) => (
                  <tr key={e.id} data-testid="desk-execution">
                    <td className={`${table.td} whitespace-nowrap`}>
                      <Link href={`/orders/${e.orderId}`} prefetch={false} className={link}>
                        {formatDateTime(e.filledAt)}
                      </Link>
                    </td>
                    <Account id={e.accountId} number={e.accountNumber} />
                    <td className={`${table.td} font-mono text-xs`}>{e.symbol}</td>
                    <td className={table.td}>
                      <EnumBadge value={e.side} tones={SIDE_TONES} />
                    </td>
                    <Num>{formatQuantity(e.quantity)}</Num>
                    <Num>{formatMoney(e.price, ccy)}</Num>
                  </tr>
                ))}
              </Table>
            </Part>
          ) : null}
          {d.positions ? (
            <Part
              title="Positions (net of the activities read)"
              testId="desk-positions"
              empty="No account the desk has read holds or moved this symbol."
              count={d.positions.length}
            >
              <Table head={["Account", ["Net quantity"], "Activities read up to"]}>
                {d.positions.map((p) => (
                  <tr key={p.accountId} data-testid="desk-position">
                    <Account id={p.accountId} number={p.accountNumber} />
                    <Num>{formatQuantity(p.quantity)}</Num>
                    <td className={`${table.td} text-xs whitespace-nowrap text-slate-600`}>{p.asOf ? formatDateTime(p.asOf) : "—"}</td>
                  </tr>
                ))}
              </Table>
            </Part>
          ) : null}
          {d.alerts ? (
            <Part title="Alerts" testId="desk-alerts" empty="No alert names this symbol." count={d.alerts.length}>
              <Table head={["Raised (UTC)", "Account", "Summary", "Status"]}>
                {d.alerts.map((a) => (
                  <tr key={a.id} data-testid="desk-alert">
                    <td className={`${table.td} whitespace-nowrap`}>
                      <Link href={`/alerts/${a.id}`} prefetch={false} className={link}>
                        {formatDateTime(a.raisedAt)}
                      </Link>
                    </td>
                    {a.accountId ? <Account id={a.accountId} number={a.accountNumber} /> : <td className={table.td}>—</td>}
                    <td className={`${table.td} text-xs`}>{a.summary}</td>
                    <td className={table.td}>
                      <EnumBadge value={a.status} tones={ALERT_STATUS_TONES} />
                    </td>
                  </tr>
                ))}
              </Table>
            </Part>
          ) : null}
        </div>
      )}
    </DetailPanel>
  );
}

function Part({
  title,
  testId,
  empty,
  count,
  children,
}: {
  title: string;
  testId: string;
  empty: string;
  count: number;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} data-testid={testId} className="flex min-w-0 flex-col gap-1">
      <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {title} <span className="font-normal">({count})</span>
      </h3>
      {count === 0 ? <p className="py-2 text-sm text-slate-500">{empty}</p> : children}
    </section>
  );
}

/** Column heads; a head in brackets is numeric (right-aligned). */
function Table({ head, children }: { head: (string | [string])[]; children: ReactNode }) {
  return (
    <div className={table.wrap}>
      <table className={table.table}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={String(h)} className={`${table.th} ${Array.isArray(h) ? "text-right" : ""}`}>
                {Array.isArray(h) ? h[0] : h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

const Num = ({ children }: { children: ReactNode }) => (
  <td className={`${table.td} text-right whitespace-nowrap tabular-nums`}>{children}</td>
);

/** An account by its number (its id in the title when the directory does not know it yet), linking to its page. */
function Account({ id, number }: { id: string; number: string | null }) {
  return (
    <td className={`${table.td} whitespace-nowrap`}>
      <Link href={`/accounts/${encodeURIComponent(id)}`} prefetch={false} className={`${link} font-mono text-xs`} title={id}>
        {number ?? `${id.slice(0, 8)}…`}
      </Link>
    </td>
  );
}
