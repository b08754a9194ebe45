import "server-only";
import { NotFoundError } from "@/lib/errors";
import type { ApprovalRuleInput, ApprovalRuleRow } from "@/lib/schemas/approvals";
import type { Queryable } from "@/server/db/engine";

/**
 * Approval rules as data. A rule applies to a request of its action when it is enabled, its currency is the
 * request's (or it names none) and the amount is above its threshold (or it has none). Of several, the strictest
 * applies: the most approvers, then the lowest threshold, then the oldest rule.
 */
export interface MatchedRule {
  id: string;
  action: string;
  approversRequired: number;
  approverRoles: string[];
  currency: string | null;
  threshold: string | null;
}

interface DbRule {
  id: string;
  action: string;
  currency: string | null;
  threshold: string | null;
  approvers_required: number;
  approver_roles: string[];
  enabled: boolean;
  created_by: string;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id::text, action, currency, threshold::text, approvers_required, approver_roles, enabled, created_by, updated_by, created_at, updated_at`;

function toRow(r: DbRule): ApprovalRuleRow {
  return {
    id: r.id,
    action: r.action,
    currency: r.currency,
    threshold: r.threshold,
    approversRequired: Number(r.approvers_required),
    approverRoles: r.approver_roles,
    enabled: r.enabled,
    createdBy: r.created_by,
    updatedBy: r.updated_by,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** Whether any enabled rule names one of these rule keys (one index lookup). */
export async function anyEnabledRule(q: Queryable, ruleKeys: readonly string[]): Promise<boolean> {
  const { rows } = await q.query("SELECT 1 FROM brokerdesk.approval_rules WHERE enabled AND action = ANY($1::text[]) LIMIT 1", [
    [...ruleKeys],
  ]);
  return rows.length > 0;
}

/** The strictest enabled rule among those of the given rule keys that the money (if any) meets. */
export async function matchRule(
  q: Queryable,
  ruleKeys: string | string[],
  money: { currency: string; amount: string } | undefined,
): Promise<MatchedRule | undefined> {
  const { rows } = await q.query<DbRule>(
    `SELECT ${COLUMNS} FROM brokerdesk.approval_rules
      WHERE enabled AND action = ANY($1::text[])
        AND (currency IS NULL OR currency = $2::text)
        AND (threshold IS NULL OR ($3::numeric IS NOT NULL AND $3::numeric > threshold))
      ORDER BY approvers_required DESC, approval_rules.threshold ASC NULLS FIRST, created_at, approval_rules.id LIMIT 1`,
    [typeof ruleKeys === "string" ? [ruleKeys] : ruleKeys, money?.currency ?? null, money?.amount ?? null],
  );
  const r = rows[0];
  return (
    r && {
      id: r.id,
      action: r.action,
      approversRequired: Number(r.approvers_required),
      approverRoles: r.approver_roles,
      currency: r.currency,
      threshold: r.threshold,
    }
  );
}

export async function listRules(q: Queryable): Promise<ApprovalRuleRow[]> {
  const { rows } = await q.query<DbRule>(`SELECT ${COLUMNS} FROM brokerdesk.approval_rules ORDER BY action, created_at, approval_rules.id`);
  return rows.map(toRow);
}

/** Creates the rule, or updates it when the input names one. */
export async function saveRule(q: Queryable, input: ApprovalRuleInput, by: string): Promise<ApprovalRuleRow> {
  const values = [
    input.action,
    input.currency || null,
    input.threshold || null,
    input.approversRequired,
    input.approverRoles,
    input.enabled,
  ];
  const { rows } = input.id
    ? await q.query<DbRule>(
        `UPDATE brokerdesk.approval_rules SET action = $1, currency = $2, threshold = $3::numeric, approvers_required = $4, approver_roles = $5::text[],
                enabled = $6, updated_by = $7, updated_at = now()
          WHERE id = $8 RETURNING ${COLUMNS}`,
        [...values, by, input.id],
      )
    : await q.query<DbRule>(
        `INSERT INTO brokerdesk.approval_rules (action, currency, threshold, approvers_required, approver_roles, enabled, created_by)
         VALUES ($1, $2, $3::numeric, $4, $5::text[], $6, $7) RETURNING ${COLUMNS}`,
        [...values, by],
      );
  if (!rows[0]) throw new NotFoundError("This rule does not exist.");
  return toRow(rows[0]);
}

export async function setRuleEnabled(q: Queryable, id: string, enabled: boolean, by: string): Promise<ApprovalRuleRow> {
  const { rows } = await q.query<DbRule>(
    `UPDATE brokerdesk.approval_rules SET enabled = $2, updated_by = $3, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, enabled, by],
  );
  if (!rows[0]) throw new NotFoundError("This rule does not exist.");
  return toRow(rows[0]);
}
