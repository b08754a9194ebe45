"use client";
import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import { formatMoney, formatQuantity } from "@/lib/money";
import type { OrderDetail } from "@/lib/schemas/order-detail";
import { orderCurrency, type OrderRow } from "@/lib/schemas/order-list";
import { CancelOrderForm, ChangeStatus, changeOutcome, ReplaceOrderForm, type PendingChange } from "./order-modify";
import { orderKeys } from "./query-keys";

/**
 * Replace and cancel from a blotter row, without leaving the page: the row's "⋯" opens a menu, a choice opens the
 * order page's own form (reason, review, confirm) in a dialog over the blotter, and the answer is followed above the
 * grid in words ("Cancelled", "Replace refused: …") while the row itself updates live. The server actions check the
 * permission again; the button is only where the staff member may use it and the order is open.
 */
type Step = "menu" | "replace" | "cancel";
interface Target {
  row: OrderRow;
  step: Step;
  /** The row button's box, to place the menu under it. */
  at: { top: number; right: number };
}

const OpenChange = createContext<((row: OrderRow, at: Target["at"]) => void) | null>(null);

const isOpenOrder = (r: OrderRow) => (OPEN_ORDER_STATUSES as readonly string[]).includes(r.status);
const describe = (r: Pick<OrderRow, "side" | "quantity" | "symbol" | "limitPrice" | "market">) =>
  `${r.side ?? ""} ${formatQuantity(r.quantity)} ${r.symbol ?? ""}${r.limitPrice ? ` @ ${formatMoney(r.limitPrice, orderCurrency(r.market))}` : ""}`;

/** The row's "⋯": nothing for staff who may not change orders, or for an order that is no longer open. */
export function RowChangeButton({ row }: { row: OrderRow }) {
  const open = useContext(OpenChange);
  if (!open || !isOpenOrder(row)) return null;
  return (
    <button
      type="button"
      aria-haspopup="menu"
      aria-label={`Change order ${row.clientOrderId}`}
      className="rounded px-1.5 leading-5 text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-blue-600"
      onClick={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        open(row, { top: box.bottom + 2, right: window.innerWidth - box.right });
      }}
    >
      ⋯
    </button>
  );
}

export function RowChangeLayer({ canModify, children }: { canModify: boolean; children: ReactNode }) {
  const [target, setTarget] = useState<Target>();
  const [sent, setSent] = useState<{ row: OrderRow; pending: PendingChange }[]>([]);
  const close = () => setTarget(undefined);
  return (
    <OpenChange.Provider value={canModify ? (row, at) => setTarget({ row, at, step: "menu" }) : null}>
      <div className="flex flex-col gap-2">
        {sent.map((s) => (
          <SentChange
            key={`${s.row.id}:${s.pending.sinceSeq}:${s.pending.kind}`}
            row={s.row}
            pending={s.pending}
            onDismiss={() => setSent((all) => all.filter((x) => x !== s))}
          />
        ))}
        {children}
      </div>
      {target?.step === "menu" ? <RowMenu target={target} onClose={close} onChoose={(step) => setTarget({ ...target, step })} /> : null}
      {target && target.step !== "menu" ? (
        <ChangeDialog
          row={target.row}
          kind={target.step}
          onClose={close}
          onDone={(pending) => {
            setSent((all) => [...all.filter((x) => x.row.id !== target.row.id), { row: target.row, pending }]);
            close();
          }}
        />
      ) : null}
    </OpenChange.Provider>
  );
}

/** The menu under the row's button: arrow keys move, Escape or a click elsewhere closes it. */
function RowMenu({ target, onClose, onChoose }: { target: Target; onClose: () => void; onChoose: (step: "replace" | "cancel") => void }) {
  const menu = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  // Once when it opens (the blotter renders again with every live change; focus stays where the keys moved it).
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    const away = (e: MouseEvent) => !menu.current?.contains(e.target as Node) && closeRef.current();
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, []);
  const item = "block w-full px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 focus:outline-none";
  return (
    <div
      ref={menu}
      role="menu"
      aria-label={`Order ${target.row.clientOrderId}`}
      className="fixed z-50 w-44 rounded border border-slate-200 bg-white py-1 shadow-lg"
      style={{ top: target.at.top, right: target.at.right }}
      onKeyDown={(e) => {
        const items = [...(menu.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
        const i = items.indexOf(document.activeElement as HTMLElement);
        if (e.key === "Escape") onClose();
        else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
          e.preventDefault();
          items[(i + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length]?.focus();
        }
      }}
    >
      <button type="button" role="menuitem" className={item} onClick={() => onChoose("replace")}>
        Replace…
      </button>
      <button type="button" role="menuitem" className={`${item} text-red-700`} onClick={() => onChoose("cancel")}>
        Cancel order…
      </button>
    </div>
  );
}

/** The order page's replace or cancel form over the blotter, on the order as the desk holds it now. */
function ChangeDialog({
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
          {describe(order ?? row)} · {row.accountNumber ?? row.accountId}
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
function SentChange({ row, pending, onDismiss }: { row: OrderRow; pending: PendingChange; onDismiss: () => void }) {
  const detail = useQuery({
    queryKey: orderKeys.detail(row.id),
    queryFn: ({ signal }) => fetchJson<OrderDetail>(`/api/orders/${row.id}`, signal),
  });
  const outcome = detail.data && changeOutcome(detail.data.timeline, pending);
  return (
    <div className="flex items-center gap-2" data-testid="row-change" data-order={row.clientOrderId}>
      <a href={`/orders/${row.id}`} className="shrink-0 text-xs text-blue-700 hover:underline">
        {describe(row)}
      </a>
      <div className="min-w-0 flex-1">
        <ChangeStatus pending={pending} outcome={outcome} onDismiss={onDismiss} />
      </div>
    </div>
  );
}
