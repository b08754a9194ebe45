import Link from "next/link";
import type { ReactNode } from "react";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/page";
import { formatDateTime, formatDuration } from "@/lib/format";
import { formatMoney } from "@/lib/money";
import {
  APPROVAL_STATUS_LABELS,
  APPROVAL_STATUS_TONES,
  isAccountKey,
  roleLabel,
  ruleActionLabel,
  type ApprovalDecisionRow,
  type ApprovalDetail,
} from "@/lib/schemas/approvals";

/** snake_case wire names as labels: "from_account" → "From account". */
const labelOf = (key: string) =>
  key === "client_request_id"
    ? "Client request id"
    : key
        .replace(/^w8ben_info\./, "W-8BEN ")
        .replace(/[_.]/g, " ")
        .replace(/^./, (c) => c.toUpperCase());

const AMOUNT_KEYS: Record<string, string> = { amount: "currency", from_amount: "from_currency", to_amount: "to_currency" };

/** Nested objects as dotted keys ("w8ben_info.last_name"), lists joined; empty values left out. */
function flat(value: Record<string, unknown>, prefix = "", out: [string, unknown][] = []): [string, unknown][] {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) flat(v as Record<string, unknown>, key, out);
    else if (Array.isArray(v) && v.some((x) => x && typeof x === "object"))
      continue; // a list of records: PayloadTable
    else if (Array.isArray(v)) out.push([key, v.join(", ")]);
    else if (v !== "" && v !== null && v !== undefined) out.push([key, v]);
  }
  return out;
}

const LEADING = ["line", "kind", "from_account", "to_account", "amount", "currency"];
const rank = (key: string) => (LEADING.includes(key) ? LEADING.indexOf(key) : LEADING.length);

/** A stored list of records (a batch's rows), one line each: its fields flattened, a nested `request.` left out of the names. */
function PayloadTable({ name, items, numbers }: { name: string; items: Record<string, unknown>[]; numbers: Record<string, string> }) {
  const records = items.map((item) => Object.fromEntries(flat(item).map(([k, v]) => [k.replace(/^request\./, ""), v])));
  // Stored as jsonb (keys by length), shown in reading order: a record's line and kind, then its accounts and amounts.
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))].sort((a, b) => rank(a) - rank(b));
  const cell = (r: Record<string, unknown>, key: string) => {
    const value = r[key];
    const currency = AMOUNT_KEYS[key] ? r[AMOUNT_KEYS[key]] : undefined;
    if (typeof value === "string" && typeof currency === "string") return formatMoney(value, currency);
    if (typeof value === "string" && isAccountKey(key)) return numbers[value] ?? value;
    return value === undefined ? "" : String(value);
  };
  return (
    <div className="mt-3">
      <h4 className="mb-1 text-xs font-medium text-slate-600">
        {labelOf(name)} ({items.length.toLocaleString("en-US")})
      </h4>
      <div className="max-h-96 overflow-auto rounded border border-slate-200">
        <table className="min-w-full text-xs" data-testid="approval-payload-rows">
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              {keys.map((k) => (
                <th
                  key={k}
                  className={`px-2 py-1 font-semibold whitespace-nowrap text-slate-600 ${AMOUNT_KEYS[k] ? "text-right" : "text-left"}`}
                >
                  {labelOf(k)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {records.map((r, i) => (
              <tr key={i} className="border-t border-slate-100">
                {keys.map((k) => (
                  <td key={k} className={`px-2 py-0.5 whitespace-nowrap ${AMOUNT_KEYS[k] ? "text-right tabular-nums" : "font-mono"}`}>
                    {cell(r, k)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function PayloadFields({ payload, numbers }: { payload: Record<string, unknown>; numbers: Record<string, string> }) {
  const lists = Object.entries(payload).filter(
    (e): e is [string, Record<string, unknown>[]] => Array.isArray(e[1]) && e[1].some((x) => x && typeof x === "object"),
  );
  return (
    <>
      <PayloadScalars payload={payload} numbers={numbers} />
      {lists.map(([name, items]) => (
        <PayloadTable key={name} name={name} items={items} numbers={numbers} />
      ))}
    </>
  );
}

function PayloadScalars({ payload, numbers }: { payload: Record<string, unknown>; numbers: Record<string, string> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm" data-testid="approval-payload">
      {flat(payload).map(([key, value]) => {
        const currency = AMOUNT_KEYS[key] ? payload[AMOUNT_KEYS[key]] : undefined;
        const number = typeof value === "string" && isAccountKey(key) ? numbers[value] : undefined;
        if (number) {
          // An account by the number staff know it by, linked; its id stays in the title.
          return (
            <div key={key} className="contents">
              <dt className="text-xs font-medium text-slate-600">{labelOf(key)}</dt>
              <dd>
                <Link
                  href={`/accounts/${value}`}
                  title={String(value)}
                  className="font-mono text-xs text-blue-700 hover:underline"
                  prefetch={false}
                >
                  {number}
                </Link>
              </dd>
            </div>
          );
        }
        const shown =
          typeof value === "string" && typeof currency === "string"
            ? formatMoney(value, currency)
            : typeof value === "string"
              ? value
              : JSON.stringify(value);
        return (
          <div key={key} className="contents">
            <dt className="text-xs font-medium text-slate-600">{labelOf(key)}</dt>
            <dd className={typeof currency === "string" ? "font-semibold tabular-nums" : "font-mono text-xs break-all"}>{shown}</dd>
          </div>
        );
      })}
    </dl>
  );
}

interface DiffLine {
  label?: string;
  path?: string;
  before?: unknown;
  after?: unknown;
}

function Diff({ diff }: { diff: unknown }) {
  const lines = Array.isArray(diff) ? (diff as DiffLine[]) : [];
  if (!lines.length) return <pre className="overflow-x-auto text-xs">{JSON.stringify(diff, null, 2)}</pre>;
  return (
    <table className="text-sm" data-testid="approval-diff">
      <thead>
        <tr className="text-left text-xs text-slate-500">
          <th className="pr-4 font-medium" />
          <th className="pr-4 font-medium">Before</th>
          <th className="font-medium">After</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={l.path ?? i}>
            <th className="pr-4 text-left text-xs font-medium text-slate-600">{l.label ?? l.path}</th>
            <td className="pr-4 text-slate-500 line-through">{String(l.before ?? "—")}</td>
            <td className="font-semibold">{String(l.after ?? "—")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/** The request as stored (payload, diff), its decisions, and after execution the outcome and where to see it. */
export function ApprovalView({
  r,
  now,
  resultLink,
  decide,
  check,
}: {
  r: ApprovalDetail;
  now: number;
  resultLink?: { href: string; label: string };
  decide: ReactNode;
  /** An admin's check of an execution whose process stopped. */
  check?: ReactNode;
}) {
  const pending = r.status === "pending";
  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="flex flex-col gap-4">
        <Panel title="Request">
          <p className="mb-3 text-base font-medium text-slate-900" data-testid="approval-summary">
            {r.summary}
          </p>
          <dl className="mb-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1">
            <Row label="Action">{ruleActionLabel(r.ruleAction)}</Row>
            <Row label="Status">
              <EnumBadge value={r.status} tones={APPROVAL_STATUS_TONES} labels={APPROVAL_STATUS_LABELS} />
            </Row>
            <Row label="Maker">
              {r.makerEmail} <span className="text-xs text-slate-500">({roleLabel(r.makerRole)})</span>
            </Row>
            <Row label="Made">
              {formatDateTime(r.createdAt)} · {formatDuration(now - Date.parse(r.createdAt))} ago
            </Row>
            <Row label={pending ? "Expires" : "Would have expired"}>
              {formatDateTime(r.expiresAt)}
              {pending ? <span className="text-slate-500"> · in {formatDuration(Date.parse(r.expiresAt) - now)}</span> : null}
            </Row>
            <Row label="Approvals">
              <span data-testid="approval-count">
                {r.approvals} of {r.approversRequired}
              </span>{" "}
              <span className="text-xs text-slate-500">by {r.approverRoles.map(roleLabel).join(" or ")}</span>
            </Row>
            <Row label="Payload hash">
              <span
                className="font-mono text-[11px] text-slate-500"
                title="SHA-256 of the stored request: what is approved is what is sent"
              >
                {r.payloadHash.slice(0, 16)}…
              </span>
            </Row>
          </dl>
          {r.diff ? (
            <>
              <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Changes</h3>
              <div className="mb-4">
                <Diff diff={r.diff} />
              </div>
            </>
          ) : null}
          <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            {pending ? "Will be sent as" : r.status === "executed" || r.status === "failed" ? "Sent as" : "The request as stored"}
          </h3>
          <PayloadFields payload={r.payload} numbers={r.accountNumbers} />
        </Panel>
        {r.status === "executed" || r.status === "failed" || r.status === "executing" ? (
          <Panel title="Result">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1" data-testid="approval-result">
              <Row label="Outcome">
                <EnumBadge value={r.status} tones={APPROVAL_STATUS_TONES} labels={APPROVAL_STATUS_LABELS} />
              </Row>
              {r.checkingSince ? (
                <Row label="Checking">
                  <span data-testid="approval-checking">
                    Checking the upstream since {formatDateTime(r.checkingSince)}: the process sending it stopped. The upstream&apos;s
                    answer settles it; it is never sent again.
                  </span>
                  {check ? <div className="mt-2">{check}</div> : null}
                </Row>
              ) : null}
              {r.executedAt ? <Row label="Executed">{formatDateTime(r.executedAt)}</Row> : null}
              <Row label="Upstream request id">
                <span className="font-mono text-xs">{r.upstreamRequestId ?? "—"}</span>
              </Row>
              {r.error ? <Row label="Error">{r.error}</Row> : null}
              {resultLink && r.status === "executed" ? (
                <Row label="See it">
                  <Link href={resultLink.href} className="text-blue-700 hover:underline" prefetch={false}>
                    {resultLink.label}
                  </Link>
                </Row>
              ) : null}
            </dl>
          </Panel>
        ) : null}
      </div>
      <div className="flex flex-col gap-4">
        {pending ? (
          <Panel title="Decide">{decide ?? <p className="text-sm text-slate-600">You cannot decide this request.</p>}</Panel>
        ) : null}
        <Panel title="Decisions">
          <DecisionList decisions={r.decisions} />
        </Panel>
      </div>
    </div>
  );
}

/** Who decided what, when, and why: each decision of a request in order. */
export function DecisionList({ decisions }: { decisions: ApprovalDecisionRow[] }) {
  if (!decisions.length) return <p className="text-sm text-slate-500">No decisions yet.</p>;
  return (
    <ol className="flex flex-col gap-2 text-sm" data-testid="approval-decisions">
      {decisions.map((d) => (
        <li key={d.approverId} className="flex flex-col">
          <span>
            <Badge tone={d.decision === "approve" ? "green" : "red"}>{d.decision === "approve" ? "Approved" : "Rejected"}</Badge>{" "}
            {d.approverEmail} <span className="text-xs text-slate-500">({roleLabel(d.approverRole)})</span>
          </span>
          <span className="text-xs text-slate-500">{formatDateTime(d.at)}</span>
          {d.reason ? <span className="text-xs">Reason: {d.reason}</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** A movement's approval trail: each request that held it, its maker, its decisions and what became of it. */
export function ApprovalTrail({ approvals }: { approvals: ApprovalDetail[] }) {
  return (
    <Panel title="Approval trail">
      <ol className="flex flex-col gap-4" data-testid="approval-trail">
        {approvals.map((a) => (
          <li key={a.id} className="flex flex-col gap-2">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <EnumBadge value={a.status} tones={APPROVAL_STATUS_TONES} labels={APPROVAL_STATUS_LABELS} />
              <Link href={`/approvals/${a.id}`} className="text-blue-700 hover:underline">
                Approval request
              </Link>
              <span className="text-slate-600">
                asked by {a.makerEmail} on {formatDateTime(a.createdAt)};{" "}
                {a.approversRequired === 1 ? "1 approver" : `${a.approversRequired} approvers`} needed
              </span>
            </div>
            <DecisionList decisions={a.decisions} />
            {a.executedAt ? (
              <p className="text-xs text-slate-600">
                Sent on approval {formatDateTime(a.executedAt)}
                {a.upstreamRequestId ? `, upstream request ${a.upstreamRequestId}` : ""}
              </p>
            ) : null}
            {a.error ? <p className="text-xs text-red-700">{a.error}</p> : null}
          </li>
        ))}
      </ol>
    </Panel>
  );
}
