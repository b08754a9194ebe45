"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import type { OrderDetail } from "@/lib/schemas/order-detail";
import type { OrderRow } from "@/lib/schemas/order-list";
import { CancelOrderForm, ChangeStatus, changeOutcome, ReplaceOrderForm, type PendingChange } from "./order-modify";
import { orderKeys } from "./query-keys";
import { describeOrder, isOpenOrder } from "./row-order";

/**
 * What a blotter row's change opens: loaded when first used (the forms, their schemas and actions stay out of the
 * blotter's first load).
 */
/** The order page's replace or cancel form over the blotter, on the order as the desk holds it now. */
export function ChangeDialog({
  row,
  kind,
  onClose,
  onDone,
}: {
  row: OrderRow;
  kind: "replace" | "cancel";
  onClose: () => void;
  onDone: (p: PendingChange) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);
  const detail = useQuery({
    queryKey: orderKeys.detail(row.id),
    queryFn: ({ signal }) => fetchJson<OrderDetail>(`/api/orders/${row.id}`, signal),
  });
  const order = detail.data?.order;
  const title = `${kind === "replace" ? "Replace" : "Cancel"} order`;
  return (
    <dialog
      ref={ref}
      aria-label={title}
      className="m-auto w-[min(34rem,92vw)] rounded border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/30"
      onClose={onClose}
    >
      <header className="flex items-baseline justify-between gap-3 border-b border-slate-200 px-4 py-2">
        <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
        <span className="truncate text-xs text-slate-600" title={row.clientOrderId}>
          {describeOrder(order ?? row)} · {row.accountNumber ?? row.accountId}
        </span>
      </header>
      <div className="p-4">
        {detail.error ? (
          <p role="alert" className="text-sm text-red-700">
            The order could not be read: {(detail.error as Error).message}
          </p>
        ) : !order ? (
          <p className="text-sm text-slate-500">Reading the order…</p>
        ) : !isOpenOrder(order) ? (
          <p className="text-sm text-slate-700">This order is no longer open; nothing can be changed.</p>
        ) : kind === "replace" ? (
          <ReplaceOrderForm order={order} onClose={onClose} onDone={onDone} />
        ) : (
          <CancelOrderForm order={order} onClose={onClose} onDone={onDone} />
        )}
      </div>
    </dialog>
  );
}

/** A change sent from a row, followed until the broker answers (its detail is read again on each order notice). */
export function SentChange({ row, pending, onDismiss }: { row: OrderRow; pending: PendingChange; onDismiss: () => void }) {
  const detail = useQuery({
    queryKey: orderKeys.detail(row.id),
    queryFn: ({ signal }) => fetchJson<OrderDetail>(`/api/orders/${row.id}`, signal),
  });
  const outcome = detail.data && changeOutcome(detail.data.timeline, pending);
  return (
    <div className="flex items-center gap-2" data-testid="row-change" data-order={row.clientOrderId}>
      <a href={`/orders/${row.id}`} className="shrink-0 text-xs text-blue-700 hover:underline">
        {describeOrder(row)}
      </a>
      <div className="min-w-0 flex-1">
        <ChangeStatus pending={pending} outcome={outcome} onDismiss={onDismiss} />
      </div>
    </div>
  );
}
