"use client";
import { useState, type ReactNode } from "react";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Options } from "@/components/ui/field";
import { compareDecimal, formatPrice, formatQuantity } from "@/lib/money";
import { cancelOrderSchema, type CancelOrderInput, type CancelOrderValues } from "@/lib/schemas/order-cancel";
import { enumLabel } from "@/lib/enums";
import { CANCEL_OUTCOMES, MODIFY_OUTCOMES, type OrderFull, type OrderTimelineEntry } from "@/lib/schemas/order-detail";
import { orderCurrency } from "@/lib/schemas/order-list";
import { ORDER_CHANGE_REASON_LABELS, ORDER_CHANGE_REASONS } from "@/lib/schemas/order-reason";
import {
  pricesOf,
  REPLACE_TIME_IN_FORCE,
  replaceOrderSchema,
  type ReplaceOrderInput,
  type ReplaceOrderValues,
} from "@/lib/schemas/order-replace";
import { cancelOrderAction, replaceOrderAction } from "@/server/actions/orders";
import { ORDER_SCENE_LABELS, ORDER_STATUS_LABELS } from "./order-labels";

/** What the page waits for after a replace or cancel was accepted: the first outcome event after `sinceSeq`. */
export interface PendingChange {
  kind: "replace" | "cancel";
  sinceSeq: number;
}

/** The broker's answer to a pending change, once it is in the order's timeline. */
export function changeOutcome(timeline: OrderTimelineEntry[], pending: PendingChange): OrderTimelineEntry | undefined {
  const scenes: readonly string[] = pending.kind === "replace" ? MODIFY_OUTCOMES : CANCEL_OUTCOMES;
  return timeline.find((t) => t.seq > pending.sinceSeq && scenes.includes(t.scene));
}

/** A pending change in words: sent and waiting, or the broker's answer ("Cancelled", "Replace refused: …"). */
export function ChangeStatus({
  pending,
  outcome,
  onDismiss,
}: {
  pending: PendingChange;
  outcome?: OrderTimelineEntry;
  onDismiss?: () => void;
}) {
  const tone = outcome
    ? outcome.scene.endsWith("SUCCESS")
      ? "border-emerald-300 bg-emerald-50 text-emerald-900"
      : "border-red-300 bg-red-50 text-red-900"
    : "border-amber-300 bg-amber-50 text-amber-900";
  return (
    <div role="status" data-testid="change-outcome" className={`rounded border px-3 py-2 text-sm ${tone}`}>
      {outcome
        ? `${enumLabel(ORDER_SCENE_LABELS, outcome.scene)}${outcome.reason ? `: ${outcome.reason}` : ""}`
        : `${pending.kind === "replace" ? "Replace" : "Cancel"} sent — pending the broker's answer.`}
      {outcome && onDismiss ? (
        <button type="button" className="ml-3 text-xs underline" onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}

const RF = formFields<ReplaceOrderValues>();
const CF = formFields<CancelOrderValues>();

/** The reason (a code, and text for Other) and the button to the before → after review. */
function ReasonFields({ F, review, danger, onClose }: { F: typeof RF | typeof CF; review: string; danger?: boolean; onClose: () => void }) {
  return (
    <>
      <F.SelectField name="reasonCode" label="Reason" required>
        <option value="">Choose…</option>
        <Options values={ORDER_CHANGE_REASONS} labels={ORDER_CHANGE_REASON_LABELS} />
      </F.SelectField>
      <F.TextField name="reasonText" label="Reason text" hint="Required for Other; kept in the audit trail." />
      <div className="flex gap-2">
        <Button type="submit" variant={danger ? "danger" : "primary"}>
          {review}
        </Button>
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
    </>
  );
}

/** Before → after, the last step before anything is sent. */
function Review({ rows, reason, children }: { rows: [string, ReactNode, ReactNode][]; reason: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2" data-testid="order-change-review">
      <table className="text-sm">
        <thead>
          <tr className="text-xs text-slate-500">
            <th className="pr-4 font-medium" />
            {/* Over their values, which are right-aligned. */}
            <th className="pr-4 text-right font-medium">Before</th>
            <th className="text-right font-medium">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, before, after]) => (
            <tr key={label}>
              <th className="pr-4 text-left text-xs font-medium text-slate-600">{label}</th>
              <td className="pr-4 text-right tabular-nums text-slate-500 line-through">{before}</td>
              <td className="text-right font-semibold tabular-nums">{after}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-slate-600">Reason: {reason}</p>
      <div className="flex gap-2">{children}</div>
    </div>
  );
}

/** Equal values, decimals compared as decimals ("50" and "50.00" are the same price). */
function same(before: string | null, after: string): boolean {
  if (before === null) return false;
  const decimal = /^\d+(\.\d+)?$/;
  return decimal.test(before) && decimal.test(after) ? compareDecimal(before, after) === 0 : before === after;
}

const reasonOf = (v: { reasonCode: keyof typeof ORDER_CHANGE_REASON_LABELS; reasonText?: string }) =>
  `${ORDER_CHANGE_REASON_LABELS[v.reasonCode]}${v.reasonText ? ` — ${v.reasonText}` : ""}`;

export function ReplaceOrderForm({
  order,
  onDone,
  onClose,
}: {
  order: OrderFull;
  onDone: (p: PendingChange) => void;
  onClose: () => void;
}) {
  const [review, setReview] = useState<ReplaceOrderInput>();
  const prices = pricesOf(order.orderType);
  const ccy = orderCurrency(order.market);
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: replaceOrderSchema,
    defaultValues: {
      orderId: order.id,
      quantity: order.quantity ?? "",
      limitPrice: order.limitPrice ?? "",
      stopPrice: order.stopPrice ?? "",
      timeInForce: (REPLACE_TIME_IN_FORCE as readonly string[]).includes(order.timeInForce ?? "") ? (order.timeInForce as "DAY") : "",
      expireDate: order.expireDate ?? "",
      reasonCode: "" as never,
      reasonText: "",
    },
    action: replaceOrderAction,
    onValid: (values) => setReview(values),
    onSuccess: (data) => onDone({ kind: "replace", sinceSeq: data.sinceSeq }),
    onFailure: () => setReview(undefined),
  });
  // Only what differs is sent; an unchanged box is left out.
  const changes = (v: ReplaceOrderInput): [string, ReactNode, ReactNode][] =>
    (
      [
        ["Quantity", order.quantity, v.quantity, formatQuantity],
        ["Limit price", order.limitPrice, v.limitPrice, (x: string) => formatPrice(x, ccy)],
        ["Stop price", order.stopPrice, v.stopPrice, (x: string) => formatPrice(x, ccy)],
        ["Time in force", order.timeInForce, v.timeInForce, (x: string) => x],
        ["Expires", order.expireDate, v.expireDate, (x: string) => x],
      ] as const
    )
      .filter(([, before, after]) => after !== undefined && !same(before, after))
      .map(([label, before, after, show]) => [label, before ? show(before) : "—", show(after!)]);
  const onlyChanges = (v: ReplaceOrderInput): ReplaceOrderInput => {
    const changed = new Set(changes(v).map(([l]) => l));
    return {
      ...v,
      quantity: changed.has("Quantity") ? v.quantity : undefined,
      limitPrice: changed.has("Limit price") ? v.limitPrice : undefined,
      stopPrice: changed.has("Stop price") ? v.stopPrice : undefined,
      timeInForce: changed.has("Time in force") || changed.has("Expires") ? v.timeInForce : undefined,
      expireDate: changed.has("Expires") || (changed.has("Time in force") && v.timeInForce === "GTD") ? v.expireDate : undefined,
    };
  };
  return (
    <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-3" aria-label="Replace order">
      {review ? (
        <Review rows={changes(review)} reason={reasonOf(review)}>
          <Button variant="primary" disabled={busy || !changes(review).length} onClick={() => void submit(onlyChanges(review))}>
            {busy ? "Sending…" : "Confirm replace"}
          </Button>
          <Button variant="secondary" onClick={() => setReview(undefined)} disabled={busy}>
            Back
          </Button>
          {!changes(review).length ? <span className="text-xs text-amber-800">Nothing changes: edit a value first.</span> : null}
        </Review>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3">
            <RF.TextField name="quantity" label="Quantity" inputMode="decimal" />
            {prices.limit ? <RF.TextField name="limitPrice" label={`Limit price (${ccy ?? "—"})`} inputMode="decimal" /> : null}
            {prices.stop ? <RF.TextField name="stopPrice" label={`Stop price (${ccy ?? "—"})`} inputMode="decimal" /> : null}
            <RF.SelectField name="timeInForce" label="Time in force">
              <option value="">Unchanged</option>
              <Options values={REPLACE_TIME_IN_FORCE} />
            </RF.SelectField>
            <RF.DateField name="expireDate" label="Expires (GTD)" />
          </div>
          <ReasonFields F={RF} review="Review replace" onClose={onClose} />
        </>
      )}
    </ActionForm>
  );
}

export function CancelOrderForm({ order, onDone, onClose }: { order: OrderFull; onDone: (p: PendingChange) => void; onClose: () => void }) {
  const [review, setReview] = useState<CancelOrderInput>();
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: cancelOrderSchema,
    defaultValues: { orderId: order.id, reasonCode: "" as never, reasonText: "" },
    action: cancelOrderAction,
    onValid: (values) => setReview(values),
    onSuccess: (data) => onDone({ kind: "cancel", sinceSeq: data.sinceSeq }),
    onFailure: () => setReview(undefined),
  });
  const open = `${formatQuantity(order.quantity)} open, ${formatQuantity(order.filledQuantity)} filled`;
  return (
    <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-3" aria-label="Cancel order">
      {review ? (
        <Review
          rows={[["Status", `${enumLabel(ORDER_STATUS_LABELS, order.status)} · ${open}`, "Cancelled (what is unfilled)"]]}
          reason={reasonOf(review)}
        >
          <Button variant="danger" disabled={busy} onClick={() => void submit(review)}>
            {busy ? "Sending…" : "Confirm cancel"}
          </Button>
          <Button variant="secondary" onClick={() => setReview(undefined)} disabled={busy}>
            Back
          </Button>
        </Review>
      ) : (
        <>
          <ReasonFields F={CF} review="Review cancel" danger onClose={onClose} />
        </>
      )}
    </ActionForm>
  );
}
