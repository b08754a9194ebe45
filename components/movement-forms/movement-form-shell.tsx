"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import type { FieldValues } from "react-hook-form";
import { ReviewForm } from "@/components/form/review-form";
import { FormBanner } from "@/components/form/form-banner";
import { Button } from "@/components/ui/button";
import { EnumBadge } from "@/components/ui/enum-badge";
import { isPendingApproval } from "@/lib/errors";
import { REQUEST_STATUSES } from "@/lib/broker-enums";
import { MOVEMENT_KIND_LABELS } from "@/lib/schemas/movements";
import type { MovementFormState, MovementOutcome } from "./use-movement-form";

export type SummaryRow = [label: string, value: ReactNode];

const STATUS_TONES = { SUBMITTED: "blue", COMPLETED: "green", REJECTED: "red", FAILED: "red", CANCELED: "slate" } as const satisfies Record<
  (typeof REQUEST_STATUSES)[number],
  string
>;

/**
 * The frame every movement form shares: its fields on the left (locked while reviewing), and on the right the
 * review of exactly what will be sent, then the upstream's answer with a link to the movement.
 */
export function MovementFormShell<V extends FieldValues, O extends { client_request_id: string }>({
  m,
  summary,
  children,
  aside,
}: {
  m: MovementFormState<V, O>;
  summary: (request: O) => SummaryRow[];
  children: ReactNode;
  /** Live facts beside the review (available cash, the quote). */
  aside?: ReactNode;
}) {
  const label = MOVEMENT_KIND_LABELS[m.kind];
  const locked = !!m.review || !!m.outcome;
  const panel = m.outcome ? (
    <OutcomePanel outcome={m.outcome} kind={m.kind} clientRequestId={m.clientRequestId} onNew={m.startNew} label={label} />
  ) : m.review ? (
    <>
      <dl className="flex flex-col" data-testid="movement-review">
        {summary(m.review).map(([k, v]) => (
          <div key={k} className="flex items-baseline justify-between gap-3 border-b border-slate-100 py-1 last:border-0">
            <dt className="shrink-0 text-slate-600">{k}</dt>
            <dd className="min-w-0 text-right tabular-nums break-words">{v}</dd>
          </div>
        ))}
        <div className="flex items-baseline justify-between gap-3 py-1">
          <dt className="shrink-0 text-slate-600">Request id</dt>
          <dd className="min-w-0 truncate font-mono text-xs" title={m.review.client_request_id}>
            {m.review.client_request_id}
          </dd>
        </div>
      </dl>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={m.edit} disabled={m.busy}>
          Edit
        </Button>
        <Button onClick={() => void m.send()} disabled={m.busy}>
          {m.busy ? "Sending…" : `Send ${label.toLowerCase()}`}
        </Button>
      </div>
    </>
  ) : (
    <>
      <p className="text-xs text-slate-500">Review shows exactly what will be sent before anything is sent.</p>
      <div>
        <Button type="submit" disabled={m.busy}>
          Review
        </Button>
      </div>
    </>
  );
  return (
    <ReviewForm
      form={m.form}
      onSubmit={m.onSubmit}
      label={label}
      width="max-w-6xl lg:grid-cols-[minmax(0,1fr)_24rem]"
      beside={aside}
      panelLabel="Review and send"
      panelTitle={m.outcome ? "Sent" : m.review ? "Review" : "Review and send"}
      panelClassName="text-sm"
      panel={panel}
    >
      <FormBanner banner={m.banner} />
      <fieldset disabled={locked} className="flex min-w-0 flex-col gap-3 disabled:opacity-80">
        {children}
      </fieldset>
    </ReviewForm>
  );
}

function OutcomePanel({
  outcome,
  kind,
  clientRequestId,
  onNew,
  label,
}: {
  outcome: MovementOutcome;
  kind: string;
  clientRequestId: string;
  onNew: () => void;
  label: string;
}) {
  const newButton = (
    <Button variant="secondary" onClick={onNew}>
      New {label.toLowerCase()}
    </Button>
  );
  if (isPendingApproval(outcome)) {
    return (
      <div className="flex flex-col gap-2" data-testid="movement-outcome">
        <p className="font-medium text-amber-800">Sent for approval</p>
        <p className="text-slate-700">{outcome.message}</p>
        <div className="flex items-center gap-3">
          <Link href={`/approvals/${encodeURIComponent(outcome.approvalId)}`} className="text-blue-700 hover:underline">
            Open the approval request
          </Link>
          {newButton}
        </div>
      </div>
    );
  }
  const done = outcome.status === "COMPLETED";
  return (
    <div className="flex flex-col gap-2" data-testid="movement-outcome">
      <p className="flex items-center gap-2">
        <span className={done ? "font-medium text-emerald-800" : "font-medium text-slate-800"}>
          {done ? `${label} completed.` : "The broker answered:"}
        </span>
        <span data-testid="movement-status">
          <EnumBadge value={outcome.status} tones={STATUS_TONES} />
        </span>
      </p>
      {outcome.reason ? (
        <p className="rounded border border-red-200 bg-red-50 px-2 py-1 text-red-800" data-testid="movement-reason">
          {outcome.reason}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <Link href={`/movements/${kind}/${encodeURIComponent(clientRequestId)}`} prefetch={false} className="text-blue-700 hover:underline">
          Open the movement
        </Link>
        {newButton}
      </div>
    </div>
  );
}
