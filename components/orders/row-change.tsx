"use client";
import dynamic from "next/dynamic";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { OrderRow } from "@/lib/schemas/order-list";
import type { PendingChange } from "./order-modify";
import { isOpenOrder } from "./row-order";

// The forms load when a row's change is first chosen, not with the blotter.
const ChangeDialog = dynamic(() => import("./row-change-dialog").then((m) => m.ChangeDialog), { ssr: false });
const SentChange = dynamic(() => import("./row-change-dialog").then((m) => m.SentChange), { ssr: false });

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
  const close = () => {
    const row = target?.row;
    setTarget(undefined);
    // The focus goes back to the row's "⋯" (the menu item that opened a dialog is gone), found again by its label: the
    // blotter may have rendered the row anew meanwhile. An order no longer open has no "⋯", and the focus stays.
    if (row) {
      const label = CSS.escape(`Change order ${row.clientOrderId}`);
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`button[aria-label="${label}"]`)?.focus());
    }
  };
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
