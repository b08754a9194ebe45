"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { Button } from "@/components/ui/button";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import { formatPrice, formatQuantity } from "@/lib/money";
import type { OrderDetail } from "@/lib/schemas/order-detail";
import { orderCurrency } from "@/lib/schemas/order-list";
import { ORDER_STATUS_LABELS, ORDER_STATUS_TONES, SIDE_TONES } from "./order-labels";
import { CancelOrderForm, ChangeStatus, changeOutcome, ReplaceOrderForm, type PendingChange } from "./order-modify";
import { ComboTree, ExecutionsPanel, LegsPanel, MoneyPanel, OrderFields, StaffChangesPanel, Timeline } from "./order-panels";
import { OrderUpstreamPanel } from "./order-upstream";
import { orderKeys } from "./query-keys";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { useReadAt } from "@/components/live/read-at";

/**
 * One order from the desk's records, kept current by the live channel (its query key is under "orders"). Staff who
 * may modify see Replace and Cancel while the order is open; after either is accepted the page says "pending" until
 * the broker's answer (MODIFY_* / CANCEL_*) is in the timeline, then shows it.
 */
export function OrderDetailView({ initial, canModify }: { initial: OrderDetail; canModify: boolean }) {
  const id = initial.order.id;
  const readAt = useReadAt();
  const { data } = useQuery({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => fetchJson<OrderDetail>(`/api/orders/${id}`, signal),
    initialData: initial,
    initialDataUpdatedAt: readAt,
  });
  const { order, group, timeline, executions } = data;
  const [open, setOpen] = useState<"replace" | "cancel">();
  const [pending, setPending] = useState<PendingChange>();
  const outcome = pending && changeOutcome(timeline, pending);
  const isOpen = (OPEN_ORDER_STATUSES as readonly string[]).includes(order.status);
  const ccy = orderCurrency(order.market);
  const price = order.limitPrice ?? order.stopPrice;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2 text-lg font-semibold">
          <EnumBadge value={order.side} tones={SIDE_TONES} />
          <span>
            {formatQuantity(order.quantity)} <SymbolLink market={order.market} symbol={order.symbol} />
          </span>
          <span className="text-sm font-normal text-slate-600">
            {order.orderType} {price ? `@ ${formatPrice(price, ccy)}` : ""} · {order.timeInForce ?? "—"}
          </span>
          <span data-testid="order-status">
            <EnumBadge value={order.status} tones={ORDER_STATUS_TONES} labels={ORDER_STATUS_LABELS} />
          </span>
        </div>
        {canModify && isOpen && !pending ? (
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setOpen("replace")}>
              Replace
            </Button>
            <Button variant="danger" onClick={() => setOpen("cancel")}>
              Cancel order
            </Button>
          </div>
        ) : null}
      </div>
      {pending ? <ChangeStatus pending={pending} outcome={outcome} onDismiss={() => setPending(undefined)} /> : null}
      {open && canModify && !pending ? (
        <Panel title={open === "replace" ? "Replace order" : "Cancel order"}>
          {open === "replace" ? (
            <ReplaceOrderForm order={order} onClose={() => setOpen(undefined)} onDone={(p) => (setPending(p), setOpen(undefined))} />
          ) : (
            <CancelOrderForm order={order} onClose={() => setOpen(undefined)} onDone={(p) => (setPending(p), setOpen(undefined))} />
          )}
        </Panel>
      ) : null}
      <div className="grid gap-3 xl:grid-cols-[3fr_2fr]">
        <div className="flex min-w-0 flex-col gap-3">
          <OrderFields order={order} />
          <ComboTree group={group} current={order.id} />
          <LegsPanel order={order} />
          <ExecutionsPanel order={order} executions={executions} />
        </div>
        <div className="flex min-w-0 flex-col gap-3">
          <MoneyPanel order={order} executions={executions} />
          <StaffChangesPanel changes={data.changes} />
          <Timeline timeline={timeline} />
          <OrderUpstreamPanel id={order.id} />
        </div>
      </div>
    </div>
  );
}
