import "server-only";
import type { Queryable } from "@/server/db/engine";
import { RULE_PARAMS } from "@/lib/schemas/surveillance";
import { logger } from "@/server/log";
import { raiseAlerts, selectEnabledRules, type SeqRange } from "./queries/evaluate";

/**
 * Evaluates the enabled surveillance rules over the read-model rows a projection batch changed: the movements and
 * orders whose last applied event is in the batch's seq range. One set-based INSERT … SELECT per rule, whatever the
 * batch size, in the projection's transaction. Idempotent: an alert is unique on (rule, subject), so a replay of the
 * same events or a rebuild of the read model raises nothing twice. Returns how many alerts were raised or grew.
 * The statements: `queries/evaluate.ts`.
 */
export async function evaluateSurveillance(tx: Queryable, range: SeqRange): Promise<number> {
  const rules = await selectEnabledRules(tx);
  let raised = 0;
  for (const rule of rules) {
    const params = RULE_PARAMS[rule.kind]?.safeParse(typeof rule.params === "string" ? JSON.parse(rule.params) : rule.params);
    if (!params?.success) {
      logger.warn({ ruleId: rule.id, kind: rule.kind }, "surveillance rule skipped: its parameters do not parse");
      continue;
    }
    raised += await raiseAlerts(tx, rule, range, params.data);
  }
  return raised;
}
