import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import { enumLabel } from "@/lib/enums";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatPrice, formatQuantity } from "@/lib/money";
import type { OrderDetail, OrderFee, OrderFull } from "@/lib/schemas/order-detail";
import { orderCurrency, type OrderRow } from "@/lib/schemas/order-list";
import { ORDER_CHANGE_REASON_LABELS } from "@/lib/schemas/order-reason";
import { SESSION_LABELS } from "@/lib/schemas/order-ticket";
import { ORDER_TYPE_LABELS } from "@/lib/schemas/order-type-labels";
import {
  COMBO_TYPE_LABELS,
  ENTRUST_LABELS,
  INSTRUMENT_TYPE_LABELS,
  ORDER_SCENE_LABELS,
  ORDER_STATUS_LABELS,
  ORDER_STATUS_TONES,
  SIDE_LABELS,
  STAFF_CHANGE_LABELS,
  TIME_IN_FORCE_LABELS,
} from "./order-labels";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { AccountRef } from "@/components/accounts/account-ref";
import { TimelineEntry, TimelinePanel } from "@/components/ui/timeline";
import { dash, Fields } from "@/components/ui/detail-fields";

/** The detail page's read-only panels: fields, money, combo group, legs, executions, timeline. */
const th = "px-2 py-1 text-left text-[11px] font-semibold text-slate-500 whitespace-nowrap";
const td = "border-t border-slate-100 px-2 py-1";
const num = `${td} text-right tabular-nums`;
const when = (v: string | null) => (v ? formatDateTime(v) : "—");

export function OrderFields({ order }: { order: OrderFull }) {
  const ccy = orderCurrency(order.market);
  return (
    <Panel title="Order">
      <Fields
        items={[
          ["Account", <AccountRef key="a" id={order.accountId} number={order.accountNumber} />],
          [
            "Client order id",
            <span key="c" className="font-mono text-xs">
              {order.clientOrderId}
            </span>,
          ],
          ["Order id", order.orderId],
          ["Symbol", order.symbol ? <SymbolLink key="s" market={order.market} symbol={order.symbol} /> : null],
          ["Market · category", [order.market, order.category].filter(Boolean).join(" · ")],
          [
            "Instrument",
            [order.instrumentType && enumLabel(INSTRUMENT_TYPE_LABELS, order.instrumentType), order.instrumentId]
              .filter(Boolean)
              .join(" · "),
          ],
          ["Side", order.side && enumLabel(SIDE_LABELS, order.side)],
          ["Order type", order.orderType && enumLabel(ORDER_TYPE_LABELS, order.orderType)],
          ["Time in force", order.timeInForce && enumLabel(TIME_IN_FORCE_LABELS, order.timeInForce)],
          ["Expires", order.expireDate],
          ["Entrust", order.entrustType && enumLabel(ENTRUST_LABELS, order.entrustType)],
          ["Trading session", order.tradingSession && enumLabel(SESSION_LABELS, order.tradingSession)],
          ["Quantity", order.quantity ? formatQuantity(order.quantity) : null],
          ["Cash amount", order.totalCashAmount ? formatMoney(order.totalCashAmount, ccy) : null],
          ["Filled", formatQuantity(order.filledQuantity)],
          // nothing filled: no average to show (the upstream sends 0)
          ["Average fill price", order.avgFilledPrice && Number(order.filledQuantity) > 0 ? formatPrice(order.avgFilledPrice, ccy) : null],
          ["Limit price", order.limitPrice ? formatPrice(order.limitPrice, ccy) : null],
          ["Stop price", order.stopPrice ? formatPrice(order.stopPrice, ccy) : null],
          [
            "Combo",
            [order.comboType && enumLabel(COMBO_TYPE_LABELS, order.comboType), order.clientComboOrderId].filter(Boolean).join(" · "),
          ],
          ["Option strategy", order.optionStrategy],
          ["Placed (placed_at)", when(order.placedAt)],
          ["Filled (filled_at)", when(order.filledAt)],
          ["Reason", order.reason],
          ["Submitted by", order.submittedBy],
          ["Last change", when(order.updatedAt)],
          [
            "Detail read",
            order.detailAt ? `${formatDateTime(order.detailAt)}${order.detailWanted ? " (a newer one is due)" : ""}` : "not yet",
          ],
        ]}
      />
    </Panel>
  );
}

export function MoneyPanel({ order, executions }: { order: OrderFull; executions: OrderDetail["executions"] }) {
  const ccy = orderCurrency(order.market);
  // Fees of the order when the detail call told them, else those its executions carried.
  const fees: OrderFee[] = order.fees ?? executions.flatMap((e) => e.fees ?? []);
  return (
    <Panel title="Commission and fees">
      <table className="w-full text-sm" aria-label="Commission and fees">
        <thead>
          <tr>
            <th className={th} />
            <th className={`${th} text-right`}>Actual</th>
            <th className={`${th} text-right`}>Receivable</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className={td}>Commission</td>
            <td className={num}>{formatMoney(order.commission, ccy)}</td>
            <td className={num}>{formatMoney(order.receivableCommission, ccy)}</td>
          </tr>
          {fees.map((f, i) => (
            <tr key={`${f.type}-${i}`}>
              <td className={td}>{f.type ?? "Fee"}</td>
              <td className={num}>{formatMoney(f.actual_value, ccy)}</td>
              <td className={num}>{formatMoney(f.receivable_value, ccy)}</td>
            </tr>
          ))}
          {!fees.length ? (
            <tr>
              <td className={`${td} text-xs text-slate-500`} colSpan={3}>
                No fees reported.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </Panel>
  );
}

const status = (s: string) => <EnumBadge value={s} tones={ORDER_STATUS_TONES} labels={ORDER_STATUS_LABELS} />;

/**
 * The combo group as a small tree: the leading order (MASTER, OTO, OTOCO) with the orders it carries (STOP_PROFIT,
 * STOP_LOSS, the OCO pair); an OCO group alone is a pair of siblings.
 */
export function ComboTree({ group, current }: { group: OrderRow[]; current: string }) {
  if (group.length < 2) return null;
  const leads = group.filter((g) => ["MASTER", "OTO", "OTOCO"].includes(g.comboType ?? ""));
  const root = leads[0];
  const children = root ? group.filter((g) => g.id !== root.id) : group;
  const member = (g: OrderRow) => (
    <span className="inline-flex items-center gap-2">
      <span className="w-24 font-mono text-[11px] text-slate-500">{g.comboType ?? "—"}</span>
      {g.id === current ? (
        <span className="font-semibold">this order</span>
      ) : (
        <Link href={`/orders/${g.id}`} prefetch={false} className="text-blue-800 hover:underline">
          {g.side} {formatQuantity(g.quantity)} {g.symbol} {g.orderType}
        </Link>
      )}
      {status(g.status)}
    </span>
  );
  return (
    <Panel title={root ? `Combo group · ${root.comboType}` : "Combo group · one cancels the other"}>
      <ul className="text-sm" aria-label="Combo group">
        {root ? <li>{member(root)}</li> : null}
        <li>
          <ul className={root ? "ml-4 border-l border-slate-200 pl-3" : ""}>
            {children.map((g) => (
              <li key={g.id} className="py-0.5">
                {member(g)}
              </li>
            ))}
          </ul>
        </li>
      </ul>
    </Panel>
  );
}

export function LegsPanel({ order }: { order: OrderFull }) {
  if (!order.legs?.length) return null;
  const ccy = orderCurrency(order.market);
  return (
    <Panel title={`Option legs${order.optionStrategy ? ` · ${order.optionStrategy}` : ""}`}>
      <table className="w-full text-sm" aria-label="Option legs">
        <thead>
          <tr>
            {["OCC symbol", "Side", "Call/put", "Strike", "Expiry", "Qty", "Multiplier", "Deliverables"].map((h) => (
              <th key={h} className={`${th} ${["Strike", "Qty", "Multiplier"].includes(h) ? "text-right" : ""}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {order.legs.map((l, i) => (
            <tr key={l.id ?? i}>
              <td className={`${td} font-mono text-xs`}>
                <SymbolLink market={l.market ?? order.market} symbol={l.symbol} className="text-blue-800 hover:underline" />
              </td>
              <td className={td}>{dash(l.side)}</td>
              <td className={td}>{dash(l.option_type)}</td>
              <td className={num}>{l.strike_price ? formatPrice(l.strike_price, ccy) : "—"}</td>
              <td className={td}>{dash(l.option_expire_date)}</td>
              <td className={num}>{formatQuantity(l.quantity)}</td>
              <td className={num}>{dash(l.multiplier ?? (l.instrument_type === "OPTION" ? "100" : null))}</td>
              <td className={`${td} text-xs`}>{l.deliverables ? JSON.stringify(l.deliverables) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

export function ExecutionsPanel({ order, executions }: { order: OrderFull; executions: OrderDetail["executions"] }) {
  const ccy = orderCurrency(order.market);
  return (
    <Panel title={`Executions (${executions.length})`}>
      {executions.length ? (
        <table className="w-full text-sm" aria-label="Executions">
          <thead>
            <tr>
              <th className={th}>Time</th>
              <th className={`${th} text-right`}>Quantity</th>
              <th className={`${th} text-right`}>Price</th>
              <th className={`${th} text-right`}>Commission</th>
              <th className={`${th} text-right`}>Receivable</th>
            </tr>
          </thead>
          <tbody>
            {executions.map((e) => (
              <tr key={e.key}>
                <td className={`${td} text-xs`}>{formatDateTime(e.filledAt)}</td>
                <td className={num}>{formatQuantity(e.quantity)}</td>
                <td className={num}>{formatPrice(e.price, ccy)}</td>
                <td className={num}>{formatMoney(e.commission, ccy)}</td>
                <td className={num}>{formatMoney(e.receivableCommission, ccy)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-xs text-slate-500">No executions.</p>
      )}
    </Panel>
  );
}

export function Timeline({ timeline }: { timeline: OrderDetail["timeline"] }) {
  return (
    <TimelinePanel count={timeline.length} empty="No changes recorded yet.">
      {timeline.map((t) => (
        <TimelineEntry
          key={t.seq}
          entry={t}
          source={t.source}
          data={{ "data-scene": t.scene }}
          notes={t.reason ? <div className="text-xs text-slate-600">{t.reason}</div> : null}
        >
          <span className="text-xs font-semibold" title={t.scene}>
            {enumLabel(ORDER_SCENE_LABELS, t.scene)}
          </span>
          {t.status ? status(t.status) : null}
          {t.filledQuantity ? <span className="text-xs text-slate-600">filled {formatQuantity(t.filledQuantity)}</span> : null}
        </TimelineEntry>
      ))}
    </TimelinePanel>
  );
}

/** Replaces and cancels sent from the desk: who, when, the reason given, and what the desk was told. */
export function StaffChangesPanel({ changes }: { changes: OrderDetail["changes"] }) {
  if (!changes.length) return null;
  return (
    <Panel title="Changes by staff">
      <ol className="flex flex-col gap-1.5 text-sm" aria-label="Changes by staff">
        {changes.map((c) => (
          <li key={c.seq} className="border-l-2 border-blue-200 pl-3" data-testid="staff-change">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-xs font-semibold">{enumLabel(STAFF_CHANGE_LABELS, c.action)}</span>
              <Badge tone={c.outcome === "success" ? "green" : "red"}>
                {c.outcome === "success" ? "sent" : (c.errorCode ?? c.outcome)}
              </Badge>
              <span className="text-xs text-slate-500">{formatDateTime(c.at)}</span>
              <span className="text-xs text-slate-700">
                {c.actor ?? "unknown"}
                {c.role ? <span className="text-slate-400"> · {c.role}</span> : null}
              </span>
            </div>
            <div className="text-xs text-slate-600 [overflow-wrap:anywhere]">
              {c.reasonCode ? enumLabel(ORDER_CHANGE_REASON_LABELS, c.reasonCode) : "No reason recorded"}
              {c.reasonText ? ` — ${c.reasonText}` : ""}
            </div>
          </li>
        ))}
      </ol>
    </Panel>
  );
}
