import "server-only";
import { can, type Access } from "@/lib/auth/permissions";
import type { DecisionNotices } from "@/lib/approval-notices";
import type { PendingMark, PendingMarksQuery } from "@/lib/schemas/approval-queue";
import type { AppDb } from "@/server/db";
import { countWaitingFor, markDecisionsSeen, selectPendingTouching, selectUnseenDecisions } from "./queries/queue";

/**
 * The approvals queue around the desk, read from the desk's own tables (no upstream call): the count of requests
 * waiting for one person's decision (the menu's badge), the held requests that touch an account or a movement (the
 * marker on their pages), the maker's decided requests not yet seen (the header's notice), and marking those seen.
 */

/** Requests this person may decide now; none for a role that decides nothing (no statement then). */
export async function approvalsWaitingFor(db: AppDb, staff: { id: string } & Access): Promise<number> {
  return can(staff, "approvals:decide") ? countWaitingFor(db.engine, staff) : 0;
}

const MARKS = 10;

export async function pendingMarks(db: AppDb, by: PendingMarksQuery): Promise<PendingMark[]> {
  const rows = await selectPendingTouching(db.engine, by, MARKS);
  return rows.map((r) => ({
    id: r.id,
    summary: r.summary,
    ruleAction: r.rule_action,
    makerEmail: r.maker_email,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

const NOTICES = 20;

export async function decisionNotices(db: AppDb, makerId: string): Promise<DecisionNotices> {
  const rows = await selectUnseenDecisions(db.engine, makerId, NOTICES);
  return {
    count: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      id: r.id,
      summary: r.summary,
      status: r.status,
      decidedAt: new Date(r.decided_at).toISOString(),
      decidedBy: r.decided_by,
      reason: r.reason,
      error: r.error,
    })),
  };
}

export function markSeen(db: AppDb, makerId: string, ids: string[]): Promise<number> {
  return markDecisionsSeen(db.engine, makerId, ids);
}
