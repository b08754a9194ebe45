import Link from "next/link";
import { AccountRef } from "@/components/accounts/account-ref";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import { ALERT_STATUS_LABELS, RULE_KIND_LABELS, type AlertRow } from "@/lib/schemas/surveillance";
import { ALERT_STATUS_TONES } from "./alert-labels";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { occRoot } from "@/lib/instruments";

const link = "text-blue-700 hover:underline";

const MOVEMENT_COLUMNS: RowColumn<AlertRow["movements"][number]>[] = [
  { head: "Kind", className: "text-xs", cell: (m) => m.kind },
  {
    head: "Request",
    className: "font-mono text-xs",
    cell: (m) => (
      <Link href={`/movements/${encodeURIComponent(m.kind)}/${encodeURIComponent(m.client_request_id)}`} prefetch={false} className={link}>
        {m.client_request_id}
      </Link>
    ),
  },
  { head: "Direction / to", className: "text-xs", cell: (m) => m.direction ?? (m.to_account ? `→ ${m.to_account}` : "—") },
  {
    head: "Amount",
    numeric: true,
    cell: (m) =>
      m.amount ? (
        formatMoney(m.amount, m.currency ?? undefined)
      ) : m.quantity ? (
        <>
          {formatQuantity(m.quantity)} <SymbolLink market={m.market} symbol={m.symbol} />
        </>
      ) : (
        "—"
      ),
  },
  { head: "Status", className: "text-xs", cell: (m) => m.status ?? "—" },
  { head: "Time", className: "text-xs whitespace-nowrap", cell: (m) => (m.at ? formatDateTime(m.at) : "—") },
];

const ORDER_COLUMNS: RowColumn<AlertRow["orders"][number]>[] = [
  {
    head: "Order",
    className: "font-mono text-xs",
    cell: (o) => (
      <Link href={`/orders/${encodeURIComponent(o.id)}`} className={link}>
        {o.client_order_id}
      </Link>
    ),
  },
  {
    head: "Symbol",
    className: "text-xs",
    cell: (o) => <SymbolLink market={o.market ?? (o.symbol && occRoot(o.symbol) ? "US" : null)} symbol={o.symbol} />,
  },
  { head: "Side", className: "text-xs", cell: (o) => o.side ?? "—" },
  { head: "Status", className: "text-xs", cell: (o) => o.status ?? "—" },
  { head: "Time", className: "text-xs whitespace-nowrap", cell: (o) => (o.at ? formatDateTime(o.at) : "—") },
];

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-3 py-1 text-sm">
      <dt className="w-32 shrink-0 text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** One alert: what raised it, the account, the movements and orders involved, and the decision once made. */
export function AlertDetail({ alert }: { alert: AlertRow }) {
  const level = alert.details as { from_level?: string | null; to_level?: string; changed_at?: string; changed_by?: string } | null;
  return (
    <div className="grid gap-4 2xl:grid-cols-2">
      <Panel title="Alert">
        <dl data-testid="alert-facts">
          <Row label="Status">
            <span data-testid="alert-status">
              <EnumBadge value={alert.status} tones={ALERT_STATUS_TONES} labels={ALERT_STATUS_LABELS} />
            </span>
          </Row>
          <Row label="Rule">
            {alert.ruleName} <span className="text-xs text-slate-500">({RULE_KIND_LABELS[alert.ruleKind] ?? alert.ruleKind})</span>
          </Row>
          <Row label="What">{alert.summary}</Row>
          <Row label="Account">
            {alert.accountId ? <AccountRef id={alert.accountId} number={alert.accountNumber} testId="alert-account" /> : "—"}
          </Row>
          <Row label="Happened">{formatDateTime(alert.occurredAt)}</Row>
          <Row label="Raised">{formatDateTime(alert.raisedAt)}</Row>
          {level?.to_level ? (
            <Row label="Option level">
              {level.from_level ?? "none"} → {level.to_level} on {level.changed_at ? formatDateTime(level.changed_at) : "—"} by{" "}
              {level.changed_by ?? "—"}
            </Row>
          ) : null}
          {alert.decidedAt ? (
            <>
              <Row label="Decided">
                {alert.decidedBy} on {formatDateTime(alert.decidedAt)}
              </Row>
              <Row label="Note">
                <span className="whitespace-pre-wrap" data-testid="alert-note">
                  {alert.note}
                </span>
              </Row>
            </>
          ) : null}
        </dl>
      </Panel>
      <div className="flex flex-col gap-4">
        {alert.movements.length ? (
          <Panel title="Movements involved">
            <RowsTable
              columns={MOVEMENT_COLUMNS}
              rows={alert.movements}
              rowKey={(m) => `${m.kind}:${m.client_request_id}`}
              rowProps={() => ({ "data-testid": "alert-movement" })}
            />
          </Panel>
        ) : null}
        {alert.orders.length ? (
          <Panel title="Orders involved">
            <RowsTable
              columns={ORDER_COLUMNS}
              rows={alert.orders}
              rowKey={(o) => o.id}
              rowProps={() => ({ "data-testid": "alert-order" })}
            />
          </Panel>
        ) : null}
      </div>
    </div>
  );
}
