import "server-only";
import type { TimelineEntry, TimelineKind } from "@/lib/schemas/account-timeline";
import { movementTypeLabel } from "@/lib/schemas/movement-list";
import { formatMoney, formatQuantity } from "@/lib/money";

export interface TimelineRow {
  kind: TimelineKind;
  id: string;
  at: Date | string;
  data: Record<string, unknown> | string;
}

type Data = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" && v ? v : typeof v === "number" ? String(v) : undefined);
const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ");

const ACTION_TITLES: Record<string, string> = {
  "accounts.create": "Account opened",
  "accounts.update": "Account updated",
  "accounts.trading_credentials.issue": "Trading credentials issued",
  "accounts.trading_credentials.revoke": "Trading credentials revoked",
  "accounts.reveal_pii": "PII revealed",
  "orders.place": "Order placed by staff",
  "orders.replace": "Order replaced by staff",
  "orders.cancel": "Order cancelled by staff",
  "orders.exercise": "Option exercise requested",
  "approvals.approve": "Approval given",
  "approvals.reject": "Approval request rejected",
  "approvals.withdraw": "Approval request withdrawn",
  "approvals.expire": "Approval request expired",
};

/** The input keys that identify a call rather than change a field. */
const NOT_FIELDS = new Set(["account_id", "client_request_id", "upstreamRequestId", "approvalId", "reason"]);

/** What an account change sent, from its audit input (redacted: values are not shown, only the fields). */
function fieldsSent(input: unknown): string | undefined {
  if (!input || typeof input !== "object" || Array.isArray(input)) return undefined;
  const keys = Object.entries(input as Data)
    .filter(([k, v]) => !NOT_FIELDS.has(k) && v !== undefined && v !== null && v !== "")
    .map(([k]) => k.replaceAll("_", " "));
  return keys.length ? `Fields sent: ${keys.join(", ")}` : undefined;
}

/** Every leaf of an input as `path → JSON value`. */
function leaves(v: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (v && typeof v === "object" && !Array.isArray(v))
    for (const [k, x] of Object.entries(v as Data)) leaves(x, prefix ? `${prefix}.${k}` : k, out);
  else if (prefix) out.set(prefix, JSON.stringify(v ?? null));
  return out;
}

/**
 * The fields an account update changed, against the account's previous recorded change (the inputs are stored
 * redacted, so a PII field hidden in both reads as unchanged); with no earlier change on record, what it sent.
 */
function fieldsChanged(input: unknown, previous: unknown): string | undefined {
  if (!previous || typeof previous !== "object") return fieldsSent(input);
  const now = leaves(input);
  const before = leaves(previous);
  const paths = [...new Set([...now.keys(), ...before.keys()])]
    .filter((p) => !NOT_FIELDS.has(p.split(".")[0]) && now.get(p) !== before.get(p))
    .sort();
  return paths.length
    ? `Fields changed: ${paths.map((p) => p.replaceAll("_", " ").replaceAll(".", ": ")).join(", ")}`
    : "No field changed since the previous update";
}

function auditEntry(d: Data): Pick<TimelineEntry, "title" | "detail" | "status" | "actor"> {
  const action = str(d.action) ?? "unknown";
  const input = d.input && typeof d.input === "object" ? (d.input as Data) : {};
  const outcome = str(d.outcome);
  const detail =
    action === "accounts.update"
      ? fieldsChanged(input, d.previous)
      : action === "accounts.reveal_pii"
        ? str(input.reason) && `Reason: ${str(input.reason)}`
        : undefined;
  return {
    title: ACTION_TITLES[action] ?? action,
    detail: detail || (outcome !== "success" && str(d.error) ? `Error ${str(d.error)}` : undefined),
    status: outcome,
    actor: str(d.actor),
  };
}

function movementEntry(accountId: string, d: Data): Pick<TimelineEntry, "title" | "detail" | "status" | "actor" | "href"> {
  const kind = str(d.kind) ?? "UNKNOWN";
  const amount = str(d.amount) ? formatMoney(str(d.amount), str(d.currency)) : undefined;
  const to = str(d.to_amount) ? `→ ${formatMoney(str(d.to_amount), str(d.to_currency))}` : undefined;
  const position = str(d.symbol) ? join(formatQuantity(str(d.quantity)), str(d.symbol)) : undefined;
  const counterpart =
    str(d.from) === accountId
      ? str(d.to) && `to ${str(d.to)}`
      : str(d.from) && str(d.from) !== accountId
        ? `from ${str(d.from)}`
        : undefined;
  return {
    title: movementTypeLabel(kind, str(d.direction) ?? null),
    detail: join(position ?? amount, to, counterpart),
    status: str(d.status),
    actor: str(d.by),
    href: `/movements/${encodeURIComponent(kind)}/${encodeURIComponent(str(d.crid) ?? "")}`,
  };
}

function diffLabels(diff: unknown): string | undefined {
  if (!Array.isArray(diff)) return undefined;
  const labels = diff.map((l) => (l && typeof l === "object" ? str((l as Data).label) : undefined)).filter(Boolean);
  return labels.length ? `Fields changed: ${labels.join(", ")}` : undefined;
}

/** A row of the union as the page shows it. */
export function toEntry(accountId: string, row: TimelineRow): TimelineEntry {
  const d: Data = typeof row.data === "string" ? (JSON.parse(row.data) as Data) : row.data;
  const base = { key: `${row.kind}:${row.id}`, kind: row.kind, at: new Date(row.at).toISOString() };
  switch (row.kind) {
    case "account":
    case "staff":
      return { ...base, ...auditEntry(d) };
    case "movement":
      return { ...base, ...movementEntry(accountId, d) };
    case "order":
      return {
        ...base,
        title: join("Order", str(d.side), str(d.symbol)),
        detail: join(
          str(d.type),
          str(d.quantity) ? formatQuantity(str(d.quantity)) : str(d.cash) && `cash ${str(d.cash)}`,
          str(d.market),
          str(d.combo) && `combo ${str(d.combo)}`,
        ),
        status: str(d.status),
        href: `/orders/${str(d.id)}`,
      };
    case "fill":
      return {
        ...base,
        title: join("Fill", str(d.side), str(d.symbol)),
        detail: `${formatQuantity(str(d.quantity))} @ ${str(d.price) ?? "?"}`,
        href: str(d.order) ? `/orders/${str(d.order)}` : undefined,
      };
    case "approval":
      return {
        ...base,
        title: "Approval requested",
        detail: join(str(d.summary), diffLabels(d.diff) && `· ${diffLabels(d.diff)}`),
        status: str(d.status),
        actor: str(d.maker),
        href: `/approvals/${str(d.id)}`,
      };
    case "alert":
      return { ...base, title: "Surveillance alert", detail: str(d.summary), status: str(d.status), href: `/alerts/${str(d.id)}` };
  }
}
