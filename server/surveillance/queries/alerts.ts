import "server-only";
import type { Queryable } from "@/server/db/engine";
import { sqlConditions } from "@/server/db/conditions";
import { keysetPage, pageLimit } from "@/server/db/keyset";
import { underlyingOf } from "@/server/orders/queries/symbol";
import type { DeskAlert } from "@/lib/schemas/instrument-desk";
import { NotFoundError } from "@/lib/errors";
import { levelRank } from "@/lib/schemas/virtual-account";
import type { AlertFilter, AlertRow, AlertStatus, RuleKind, RuleParams, SurveillanceRule } from "@/lib/schemas/surveillance";

/** The compliance queue over `brokerdesk.alerts`, the rules, and the option-level raises the rules read. */
interface DbAlert {
  id: string;
  rule_id: string;
  rule_name: string;
  rule_kind: RuleKind;
  subject: string;
  account_id: string | null;
  account_number: string | null;
  summary: string;
  movements: unknown;
  orders: unknown;
  details: unknown;
  occurred_at: Date | string;
  raised_at: Date | string;
  status: AlertStatus;
  decided_at: Date | string | null;
  decided_by: string | null;
  note: string | null;
}

const json = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;
const iso = (v: Date | string) => new Date(v).toISOString();

function toAlert(r: DbAlert): AlertRow {
  return {
    id: String(r.id),
    ruleId: String(r.rule_id),
    ruleName: r.rule_name,
    ruleKind: r.rule_kind,
    subject: r.subject,
    accountId: r.account_id,
    accountNumber: r.account_number,
    summary: r.summary,
    movements: json(r.movements) ?? [],
    orders: json(r.orders) ?? [],
    details: json(r.details) ?? null,
    occurredAt: iso(r.occurred_at),
    raisedAt: iso(r.raised_at),
    status: r.status,
    decidedAt: r.decided_at ? iso(r.decided_at) : null,
    decidedBy: r.decided_by,
    note: r.note,
  };
}

// The account's number from the directory (one index probe a row), so no page shows a bare id.
const COLUMNS = `a.id::text AS id, a.rule_id::text AS rule_id, r.name AS rule_name, r.kind AS rule_kind, a.subject, a.account_id,
  (SELECT d.account_number FROM brokerdesk.account_directory d WHERE d.account_id = a.account_id) AS account_number, a.summary,
  a.movements, a.orders, a.details, a.occurred_at, a.raised_at, a.status, a.decided_at, a.decided_by, a.note`;
const FROM = "brokerdesk.alerts a JOIN brokerdesk.surveillance_rules r ON r.id = a.rule_id";

const AGE_SQL: Record<NonNullable<AlertFilter["age"]>, string> = {
  "1d": "a.raised_at >= now() - interval '1 day'",
  "7d": "a.raised_at >= now() - interval '7 days'",
  "30d": "a.raised_at >= now() - interval '30 days'",
  older: "a.raised_at < now() - interval '30 days'",
};

/** One page of the queue, newest first, filtered by rule, status and age. */
export async function listAlerts(
  q: Queryable,
  query: AlertFilter & { cursor?: string; limit?: number } = {},
): Promise<{ rows: AlertRow[]; nextCursor?: string }> {
  const { where, params, add } = sqlConditions();
  if (query.rule) add((p) => `a.rule_id = ${p}::bigint`, query.rule);
  if (query.status) add((p) => `a.status = ${p}`, query.status);
  if (query.age) where.push(AGE_SQL[query.age]);
  const { rows, nextCursor } = await keysetPage<DbAlert>(q, {
    columns: COLUMNS,
    from: FROM,
    where,
    params,
    // Newest first by id: alerts get their ids as they are raised, and an id compares exactly in the cursor
    // (a raised_at of microseconds would not survive the cursor's JSON).
    sort: "a.id",
    tiebreak: "a.id",
    desc: true,
    cursor: query.cursor,
    limit: pageLimit(query.limit),
  });
  return { rows: rows.map(toAlert), nextCursor };
}

export async function getAlert(q: Queryable, id: string): Promise<AlertRow> {
  if (!/^\d{1,18}$/.test(id)) throw new NotFoundError("No such alert.");
  const { rows } = await q.query<DbAlert>(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.id = $1::bigint`, [id]);
  if (!rows[0]) throw new NotFoundError("No such alert.");
  return toAlert(rows[0]);
}

/** Records a reviewer's decision on an open alert; false when it was already decided (by someone else, meanwhile). */
export async function decideAlert(
  q: Queryable,
  d: { alertId: string; decision: Exclude<AlertStatus, "open">; note: string; by: string },
): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.alerts SET status = $2, note = $3, decided_by = $4, decided_at = now() WHERE id = $1::bigint AND status = 'open' RETURNING id`,
    [d.alertId, d.decision, d.note, d.by],
  );
  return rows.length === 1;
}

interface DbRule {
  id: string;
  kind: RuleKind;
  name: string;
  enabled: boolean;
  params: unknown;
  updated_at: Date | string;
  updated_by: string | null;
}

export async function listRules(q: Queryable): Promise<SurveillanceRule[]> {
  const { rows } = await q.query<DbRule>(
    "SELECT id::text AS id, kind, name, enabled, params, updated_at, updated_by FROM brokerdesk.surveillance_rules ORDER BY surveillance_rules.id",
  );
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind,
    name: r.name,
    enabled: r.enabled,
    params: json(r.params),
    updatedAt: iso(r.updated_at),
    updatedBy: r.updated_by,
  }));
}

/** Creates a rule (no id) or changes one; the kind of an existing rule stays what it was. Returns the rule's id. */
export async function saveRule<K extends RuleKind>(
  q: Queryable,
  rule: { id?: string; kind: K; name: string; enabled: boolean; params: RuleParams[K]; by: string },
): Promise<string> {
  if (rule.id) {
    const { rows } = await q.query<{ id: string }>(
      `UPDATE brokerdesk.surveillance_rules SET name = $2, enabled = $3, params = $4::jsonb, updated_at = now(), updated_by = $5
        WHERE id = $1::bigint AND kind = $6 RETURNING id::text AS id`,
      [rule.id, rule.name, rule.enabled, JSON.stringify(rule.params), rule.by, rule.kind],
    );
    if (!rows[0]) throw new NotFoundError("No such rule of this kind.");
    return rows[0].id;
  }
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO brokerdesk.surveillance_rules (kind, name, enabled, params, updated_by) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id::text AS id`,
    [rule.kind, rule.name, rule.enabled, JSON.stringify(rule.params), rule.by],
  );
  return rows[0].id;
}

/** Records an option-level raise the desk made (what the option_after_level_raise rule reads); a lowering or no change is not recorded. */
export async function recordOptionLevelChange(
  q: Queryable,
  c: { accountId: string; from: string | null; to: string | null | undefined; by: string; at?: Date },
): Promise<boolean> {
  if (!c.to || levelRank(c.to) <= levelRank(c.from)) return false;
  await q.query(
    "INSERT INTO brokerdesk.option_level_changes (account_id, from_level, to_level, changed_at, changed_by) VALUES ($1, $2, $3, $4, $5)",
    [c.accountId, c.from, c.to, c.at ?? new Date(), c.by],
  );
  return true;
}

/**
 * Alerts about a symbol, for its instrument page: an alert names the symbol when one of its orders or movements
 * is in it (an option order under its underlying). Newest first; the alerts table is small, so a scan is enough.
 */
export async function selectAlertsForSymbol(q: Queryable, symbol: string, limit = 50): Promise<DeskAlert[]> {
  const { rows } = await q.query<{
    id: string;
    account_id: string | null;
    account_number: string | null;
    summary: string;
    status: string;
    raised_at: Date;
  }>(
    `SELECT al.id::text AS id, al.account_id, d.account_number, al.summary, al.status, al.raised_at
       FROM brokerdesk.alerts al
       LEFT JOIN brokerdesk.account_directory d ON d.account_id = al.account_id
      WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(al.orders || al.movements) x
                     WHERE ${underlyingOf("(x->>'symbol')")} = $1)
      ORDER BY al.id DESC
      LIMIT $2`,
    [symbol, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    accountNumber: r.account_number,
    summary: r.summary,
    status: r.status,
    raisedAt: iso(r.raised_at),
  }));
}
