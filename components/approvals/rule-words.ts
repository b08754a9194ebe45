import { formatMoney } from "@/lib/money";
import { ruleActionLabel, type ApprovalRuleRow } from "@/lib/schemas/approvals";

/** "Cash journals in USD above USD 50,000.00": what a rule holds, in words. */
export const describeRule = (r: ApprovalRuleRow) =>
  `${ruleActionLabel(r.action)}${r.currency ? ` in ${r.currency}` : ""}${r.threshold ? ` above ${formatMoney(r.threshold, r.currency ?? undefined)}` : ""}`;

/** The question before a rule is turned off, by its Disable button or by its form: what stops being held. */
export const disableQuestion = (r: ApprovalRuleRow) =>
  `Disable the rule "${describeRule(r)}"? ${
    r.action === "movements.bulk_journals"
      ? "Bulk journal uploads will be refused until a rule holds them again."
      : "Such requests will no longer be held."
  }`;
