"use client";
import Link from "next/link";
import { PendingApprovalMarker } from "@/components/approvals/pending-marker";
import { OrderCheckLine } from "@/components/orders/order-check-line";
import { LinkButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/field";
import { ActivitiesPanel } from "./activities-panel";
import { BalancePanel } from "./balance-panel";
import { statusConsequence, StatusBadge } from "./labels";
import { OverviewPanel, useAccountOverview } from "./overview-panel";
import { PositionsPanel } from "./positions-panel";
import { StatementsPanel } from "@/components/statements/statements-panel";

/** The account page: a header and four panels that load, fail and retry independently. */
export function AccountDetail({
  accountId,
  canWrite,
  canReveal,
  canPlace = false,
  canReadOrders = false,
  canMove = false,
  canReadApprovals = false,
  canReadStatements = false,
  notice,
}: {
  accountId: string;
  canWrite: boolean;
  canReveal: boolean;
  canPlace?: boolean;
  canReadOrders?: boolean;
  canMove?: boolean;
  /** Shows the held requests that touch the account ("Pending approval"). */
  canReadApprovals?: boolean;
  /** Offers the account's statements and trade confirmations. */
  canReadStatements?: boolean;
  notice?: string;
}) {
  const overview = useAccountOverview(accountId);
  const a = overview.data;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 max-w-full">
          <Link href="/accounts" className="text-xs text-blue-700 hover:underline">
            ← Accounts
          </Link>
          <h1 className="mt-0.5 flex items-center gap-2 text-lg font-semibold text-slate-900">
            <span className="font-mono">{a?.account_number ?? accountId}</span>
            {a ? <StatusBadge status={a.account_status} /> : null}
          </h1>
          {a?.w8ben_info ? (
            <p
              className="truncate text-sm text-slate-600"
              title={[a.w8ben_info.first_name, a.w8ben_info.middle_name, a.w8ben_info.last_name].filter(Boolean).join(" ")}
            >
              {[a.w8ben_info.first_name, a.w8ben_info.middle_name, a.w8ben_info.last_name].filter(Boolean).join(" ")}
            </p>
          ) : null}
        </div>
        <div className="flex gap-2">
          <LinkButton variant="secondary" href={`/accounts/${encodeURIComponent(accountId)}/timeline`}>
            Timeline
          </LinkButton>
          {canReadOrders ? (
            <LinkButton variant="secondary" href={`/orders?account=${encodeURIComponent(a?.account_number ?? accountId)}`}>
              Orders
            </LinkButton>
          ) : null}
          {canPlace ? (
            <LinkButton variant="secondary" href={`/orders/new?account=${encodeURIComponent(accountId)}`}>
              Place order
            </LinkButton>
          ) : null}
          {canMove ? (
            <LinkButton variant="secondary" href={`/movements/new?account=${encodeURIComponent(accountId)}`}>
              New movement
            </LinkButton>
          ) : null}
          {canWrite ? <LinkButton href={`/accounts/${encodeURIComponent(accountId)}/edit`}>Edit account</LinkButton> : null}
        </div>
      </div>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {canReadApprovals ? <PendingApprovalMarker by={{ account: accountId }} /> : null}
      {canReadOrders ? <OrderCheckLine account={accountId} /> : null}
      {statusConsequence(a?.account_status) ? (
        <div
          role="status"
          data-testid="status-consequence"
          className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {statusConsequence(a?.account_status)}
        </div>
      ) : null}
      <div className="grid gap-3 2xl:grid-cols-2">
        <OverviewPanel accountId={accountId} canReveal={canReveal} />
        <BalancePanel accountId={accountId} />
      </div>
      <PositionsPanel accountId={accountId} canPlace={canPlace} />
      <ActivitiesPanel accountId={accountId} />
      {canReadStatements ? <StatementsPanel accountId={accountId} /> : null}
    </div>
  );
}
