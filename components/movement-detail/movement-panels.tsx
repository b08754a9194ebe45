import Link from "next/link";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import type { MovementDetail, MovementFull } from "@/lib/schemas/movement-detail";
import { MOVEMENT_STATUS_LABELS, movementTypeLabel } from "@/lib/schemas/movement-list";
import { MOVEMENT_STATUS_TONES } from "@/components/movement-list/movement-labels";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { Fields } from "@/components/ui/detail-fields";
import { TimelineEntry, TimelinePanel } from "@/components/ui/timeline";

/** The movement page's read-only panels: its fields, why it did not complete, its timeline. */
const when = (v: string | null) => (v ? formatDateTime(v) : null);
const mono = (v: string | null) => (v ? <span className="font-mono text-xs break-all">{v}</span> : null);
/** An account: its number when the desk knows it, with the id beside it, linked to its page. */
const account = (id: string | null, number: string | null) =>
  id ? (
    <Link
      href={`/accounts/${encodeURIComponent(id)}`}
      prefetch={false}
      className="font-mono text-xs break-all text-blue-700 hover:underline"
    >
      {number ? `${number} · ${id}` : id}
    </Link>
  ) : null;

export function StatusBadge({ status }: { status: string }) {
  return <EnumBadge value={status} tones={MOVEMENT_STATUS_TONES} labels={MOVEMENT_STATUS_LABELS} />;
}

/** The movement in one line: what, how much, where, its status. */
export function MovementSummary({ m }: { m: MovementFull }) {
  const what = m.symbol ? `${formatQuantity(m.quantity)} ${m.symbol}` : m.amount ? formatMoney(m.amount, m.currency ?? undefined) : "";
  const name = (id: string | null, number: string | null) => number ?? id ?? "";
  const where =
    m.fromAccount && m.toAccount
      ? `${name(m.fromAccount, m.fromAccountNumber)} → ${name(m.toAccount, m.toAccountNumber)}`
      : name(m.accountId, m.accountNumber);
  return (
    <div className="flex flex-wrap items-center gap-2 text-lg font-semibold">
      <span>{movementTypeLabel(m.kind, m.direction)}</span>
      <span className="tabular-nums">{what}</span>
      {m.toAmount ? <span className="tabular-nums text-slate-700">→ {formatMoney(m.toAmount, m.toCurrency ?? undefined)}</span> : null}
      <span className="font-mono text-sm font-normal text-slate-600">{where}</span>
      <span data-testid="movement-status">
        <StatusBadge status={m.status} />
      </span>
    </div>
  );
}

/** Why it did not complete, in the upstream's (or the desk's) own words. */
export function OutcomePanel({ m }: { m: MovementFull }) {
  if (m.status === "COMPLETED" || !m.reason) return null;
  return (
    <div role="status" data-testid="movement-reason" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
      <span className="font-semibold">{MOVEMENT_STATUS_LABELS[m.status as keyof typeof MOVEMENT_STATUS_LABELS] ?? m.status}:</span>{" "}
      {m.reason}
    </div>
  );
}

/**
 * The rate of an exchange: the upstream's where it gave one; for an exchange it did not (an instant exchange answers
 * the two amounts only), the amounts' ratio, said to be so.
 */
function fxRate(m: MovementFull): string | null {
  const unit = m.toCurrency ? ` ${m.toCurrency}${m.currency ? ` per ${m.currency}` : ""}` : "";
  if (m.fxRate) return `${m.fxRate}${unit}`;
  if (!m.amount || !m.toAmount || !m.toCurrency || Number(m.amount) === 0) return null;
  return `${(Number(m.toAmount) / Number(m.amount)).toFixed(6)}${unit} (from the amounts)`;
}

export function MovementFields({ m }: { m: MovementFull }) {
  const ccy = m.currency ?? undefined;
  return (
    <Panel title="Movement">
      <Fields
        items={[
          ["Type", movementTypeLabel(m.kind, m.direction)],
          ["Kind", m.kind],
          ["Client request id", mono(m.clientRequestId)],
          ["Upstream request id", mono(m.requestId)],
          ["Account", account(m.accountId, m.accountNumber)],
          ["Direction", m.direction],
          ["From account", account(m.fromAccount, m.fromAccountNumber)],
          ["To account", account(m.toAccount, m.toAccountNumber)],
          ["Amount", m.amount ? formatMoney(m.amount, ccy) : null],
          ["Currency", m.currency],
          ["To amount", m.toAmount ? formatMoney(m.toAmount, m.toCurrency ?? undefined) : null],
          ["To currency", m.toCurrency],
          ["FX rate", fxRate(m)],
          ["Instrument", m.instrumentType],
          ["Market", m.market],
          ["Symbol", m.symbol ? <SymbolLink key="y" market={m.market} symbol={m.symbol} /> : null],
          ["Quantity", m.quantity ? formatQuantity(m.quantity) : null],
          ["Status", <StatusBadge key="s" status={m.status} />],
          ["Reason", m.reason],
          ["Requested by", m.requestedBy],
          ["Created", when(m.createdAt)],
          ["Last change", when(m.updatedAt)],
          ["Detail read", m.detailAt ? formatDateTime(m.detailAt) : "not yet"],
          ["Last event", `#${m.lastEventSeq}`],
        ]}
      />
    </Panel>
  );
}

const SOURCE_LABELS: Record<string, string> = { stream: "event stream", snapshot: "detail call", desk: "desk submission" };

export function MovementTimeline({ timeline }: { timeline: MovementDetail["timeline"] }) {
  return (
    <TimelinePanel count={timeline.length} empty="No status recorded yet.">
      {timeline.map((t) => (
        <TimelineEntry
          key={t.seq}
          entry={t}
          source={t.source ? (SOURCE_LABELS[t.source] ?? t.source) : null}
          data={{ "data-status": t.status }}
          notes={
            <>
              {t.requestedBy ? <div className="text-xs text-slate-600">Requested by {t.requestedBy}</div> : null}
              {t.reason ? <div className="text-xs text-slate-600">{t.reason}</div> : null}
            </>
          }
        >
          <StatusBadge status={t.status} />
        </TimelineEntry>
      ))}
    </TimelinePanel>
  );
}
