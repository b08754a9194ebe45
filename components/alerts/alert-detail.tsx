import Link from "next/link";
import { AccountRef } from "@/components/accounts/account-ref";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel, table } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import { ALERT_STATUS_LABELS, RULE_KIND_LABELS, type AlertRow } from "@/lib/schemas/surveillance";
import { ALERT_STATUS_TONES } from "./alert-labels";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { occRoot } from "@/lib/instruments";

const link = "text-blue-700 hover:underline";

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
            <div className={table.wrap}>
              <table className={table.table}>
                <thead>
                  <tr>
                    <th className={table.th}>Kind</th>
                    <th className={table.th}>Request</th>
                    <th className={table.th}>Direction / to</th>
                    <th className={`${table.th} text-right`}>Amount</th>
                    <th className={table.th}>Status</th>
                    <th className={table.th}>Time</th>
                  </tr>
                </thead>
                <tbody>
                  {alert.movements.map((m) => (
                    <tr key={`${m.kind}:${m.client_request_id}`} data-testid="alert-movement">
                      <td className={`${table.td} text-xs`}>{m.kind}</td>
                      <td className={`${table.td} font-mono text-xs`}>
                        <Link
                          href={`/movements/${encodeURIComponent(m.kind)}/${encodeURIComponent(m.client_request_id)}`}
                          prefetch={false}
                          className={link}
                        >
                          {m.client_request_id}
                        </Link>
                      </td>
                      <td className={`${table.td} text-xs`}>{m.direction ?? (m.to_account ? `→ ${m.to_account}` : "—")}</td>
                      <td className={`${table.td} text-right whitespace-nowrap tabular-nums`}>
                        {m.amount ? (
                          formatMoney(m.amount, m.currency ?? undefined)
                        ) : m.quantity ? (
                          <>
                            {formatQuantity(m.quantity)} <SymbolLink market={m.market} symbol={m.symbol} />
                          </>
                        ) : (
                          "—"
                        )}
                      </td>
                      <td className={`${table.td} text-xs`}>{m.status ?? "—"}</td>
                      <td className={`${table.td} text-xs whitespace-nowrap`}>{m.at ? formatDateTime(m.at) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
        ) : null}
        {alert.orders.length ? (
          <Panel title="Orders involved">
            <div className={table.wrap}>
              <table className={table.table}>
                <thead>
                  <tr>
                    <th className={table.th}>Order</th>
                    <th className={table.th}>Symbol</th>
                    <th className={table.th}>Side</th>
                    <th className={table.th}>Status</th>
                    <th className={table.th}>Time</th>
                  </tr>
                </thead>
                <tbody>
                  {alert.orders.map((o) => (
                    <tr key={o.id} data-testid="alert-order">
                      <td className={`${table.td} font-mono text-xs`}>
                        <Link href={`/orders/${encodeURIComponent(o.id)}`} className={link}>
                          {o.client_order_id}
                        </Link>
                      </td>
                      <td className={`${table.td} text-xs`}>
                        <SymbolLink market={o.market ?? (o.symbol && occRoot(o.symbol) ? "US" : null)} symbol={o.symbol} />
                      </td>
                      <td className={`${table.td} text-xs`}>{o.side ?? "—"}</td>
                      <td className={`${table.td} text-xs`}>{o.status ?? "—"}</td>
                      <td className={`${table.td} text-xs whitespace-nowrap`}>{o.at ? formatDateTime(o.at) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
        ) : null}
      </div>
    </div>
  );
}
