import { listRules, setRuleEnabled } from "@/server/approvals/queries/rules";
import type { Queryable } from "@/server/db/engine";

/**
 * Disables every approval rule, the defaults a fresh database starts with included (migration 0120), so a test that
 * is not about four-eyes sends its movements at once, and one that is states its own rules.
 */
export async function disableAllApprovalRules(db: Queryable): Promise<void> {
  for (const rule of await listRules(db)) if (rule.enabled) await setRuleEnabled(db, rule.id, false, "tests");
}
