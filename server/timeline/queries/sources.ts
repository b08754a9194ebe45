import "server-only";
import type { TimelineKind } from "@/lib/schemas/account-timeline";

/**
 * One SQL branch a timeline kind: rows of the account newest first by (`at`, `id`), served by an index of migration
 * 0030 (or 0011/0013), with a `data` object the entry is made from. `$1` is the account id.
 */
export interface TimelineSource {
  kind: TimelineKind;
  /** The time and the unique id columns, and the id's SQL type (for the cursor comparison). */
  at: string;
  id: string;
  idType: "bigint" | "uuid";
  from: string;
  where: string[];
  data: string;
}

/** The audit actions that change the account itself; every other entry about the account is a staff action. */
export const ACCOUNT_CHANGE_ACTIONS = [
  "accounts.create",
  "accounts.update",
  "accounts.trading_credentials.issue",
  "accounts.trading_credentials.revoke",
] as const;
const accountActions = ACCOUNT_CHANGE_ACTIONS.map((a) => `'${a}'`).join(", ");
const ACCOUNT_TARGET = "a.target = ('account:' || $1::text)";

const audit = (kind: TimelineKind, where: string[]): TimelineSource => ({
  kind,
  at: "a.at",
  id: "a.seq",
  idType: "bigint",
  from: "brokerdesk.audit_entries a",
  where,
  data: `json_build_object('action', a.action, 'actor', a.actor_email, 'outcome', a.outcome, 'error', a.error_code, 'input', a.input${
    kind === "account"
      ? `,
    'previous', CASE WHEN a.action = 'accounts.update' THEN (SELECT p.input FROM brokerdesk.audit_entries p WHERE p.target = a.target
      AND p.action IN ('accounts.create', 'accounts.update') AND p.outcome = 'success' AND (p.at, p.seq) < (a.at, a.seq) ORDER BY p.at DESC, p.seq DESC LIMIT 1) END`
      : ""
  })`,
});

const MOVEMENT_DATA = `json_build_object('kind', m.kind, 'crid', m.client_request_id, 'status', m.status, 'amount', m.amount::text,
  'currency', m.currency, 'to_amount', m.to_amount::text, 'to_currency', m.to_currency, 'direction', m.direction,
  'from', m.from_account, 'to', m.to_account, 'symbol', m.symbol, 'quantity', m.quantity::text, 'by', m.requested_by)`;

const movement = (where: string[]): TimelineSource => ({
  kind: "movement",
  at: "m.created_at",
  id: "m.id",
  idType: "bigint",
  from: "brokerdesk.money_movements m",
  where,
  data: MOVEMENT_DATA,
});

/**
 * A movement names the account in `account_id`, `from_account` or `to_account`: three branches, each on its own
 * index, each leaving out what an earlier one already has, so a movement is listed once.
 */
export const SOURCES: TimelineSource[] = [
  audit("account", [ACCOUNT_TARGET, `a.action IN (${accountActions}) AND a.outcome = 'success'`]),
  audit("staff", [ACCOUNT_TARGET, `NOT (a.action IN (${accountActions}) AND a.outcome = 'success')`]),
  // Staff acts on the account's orders (target `order:<account>:<client order id>`), on the expression index of 0030.
  audit("staff", ["a.target LIKE 'order:%'", "split_part(a.target, ':', 2) = $1::text"]),
  // Approval requests about the account (held, approved, rejected, withdrawn, expired: target `approval:<id>`); a few
  // requests an account, each entry found on the target index.
  audit("staff", [
    "a.target IN (SELECT 'approval:' || r.id::text FROM brokerdesk.approval_requests r WHERE r.target = ('account:' || $1::text))",
  ]),
  movement(["m.account_id = $1"]),
  movement(["m.from_account = $1", "m.account_id IS DISTINCT FROM $1"]),
  movement(["m.to_account = $1", "m.account_id IS DISTINCT FROM $1", "m.from_account IS DISTINCT FROM $1"]),
  {
    kind: "order",
    at: "o.listed_at",
    id: "o.id",
    idType: "bigint",
    from: "brokerdesk.orders o",
    where: ["o.account_id = $1"],
    data: `json_build_object('id', o.id, 'side', o.side, 'symbol', o.symbol, 'market', o.market, 'type', o.order_type,
      'quantity', o.quantity::text, 'cash', o.total_cash_amount::text, 'status', o.status, 'combo', o.combo_type)`,
  },
  {
    kind: "fill",
    at: "x.filled_at",
    id: "x.id",
    idType: "bigint",
    from: "brokerdesk.executions x",
    where: ["x.account_id = $1"],
    data: `json_build_object('order', (SELECT o.id FROM brokerdesk.orders o WHERE o.account_id = x.account_id AND o.client_order_id = x.client_order_id LIMIT 1),
      'side', x.side, 'symbol', x.symbol, 'quantity', x.quantity::text, 'price', x.price::text)`,
  },
  {
    kind: "approval",
    at: "r.created_at",
    id: "r.id",
    idType: "uuid",
    from: "brokerdesk.approval_requests r",
    where: ["r.target = ('account:' || $1::text)"],
    data: `json_build_object('id', r.id, 'summary', r.summary, 'status', r.status, 'maker', r.maker_email, 'decided_at', r.decided_at, 'diff', r.diff)`,
  },
  {
    kind: "alert",
    at: "al.occurred_at",
    id: "al.id",
    idType: "bigint",
    from: "brokerdesk.alerts al",
    where: ["al.account_id = $1"],
    data: `json_build_object('id', al.id, 'summary', al.summary, 'status', al.status, 'decided_by', al.decided_by)`,
  },
];
