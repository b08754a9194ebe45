import "server-only";
import type { z } from "zod";
import { formatMoney } from "@/lib/money";
import { APPROVAL_RULE_ACTIONS, roleLabel } from "@/lib/schemas/approvals";
import type { ApprovalPolicy } from "@/server/action-kit/define-action";
import { learnAccountNumbers, withAccountNumbers } from "@/server/accounts/directory";
import { logger } from "@/server/log";
import type { ApprovableOperation } from "./operation";
import { approvableOperation } from "./registry";
import { holdRequest } from "./requests";
import { anyEnabledRule, matchRule } from "./queries/rules";

/**
 * defineAction's `approval` step for an operation: when an enabled rule applies to the input, the request is stored
 * as it will be sent (held; the movement shows AWAITING_APPROVAL) and the action answers pending; otherwise it
 * proceeds. The operation must be in the registry, or its held requests could never be executed.
 */
export function approvalPolicy<S extends z.ZodType>(op: ApprovableOperation<S>): ApprovalPolicy<z.output<S>> {
  return async (input, ctx) => {
    if (!approvableOperation(op.action)) throw new Error(`${op.action} is not in the approvals registry (server/approvals/registry.ts)`);
    if (op.possibleRuleKeys && !(await anyEnabledRule(ctx.db.engine, op.possibleRuleKeys))) return { status: "proceed" };
    const { ruleKeys, diff } = await op.assess(input, ctx);
    if (!ruleKeys.length) return { status: "proceed" };
    // A key the rules editor does not offer can never be held: say so rather than let money move unnoticed.
    const unoffered = ruleKeys.filter((k) => !Object.hasOwn(APPROVAL_RULE_ACTIONS, k));
    if (unoffered.length)
      logger.warn({ action: op.action, ruleKeys: unoffered }, "approval rule keys not offered in the rules editor (APPROVAL_RULE_ACTIONS)");
    const money = op.money(input);
    const rule = await matchRule(ctx.db.engine, ruleKeys, money);
    if (!rule) return { status: "proceed" };
    // The summary is written once and shown for the request's life: its accounts by number, asked for if need be.
    await learnAccountNumbers(ctx.db.engine, op.accounts(input), ctx.broker);
    const { id, created, status } = await holdRequest(ctx.db.engine, {
      action: op.action,
      ruleAction: rule.action,
      target: op.target(input),
      payload: input,
      clientRequestId: op.clientRequestId(input),
      summary: await withAccountNumbers(ctx.db.engine, op.summary(input, diff), op.accounts(input)),
      diff,
      money,
      accounts: op.accounts(input),
      rule,
      maker: { id: ctx.staff.id, email: ctx.staff.email, role: ctx.staff.role },
    });
    if (created && op.onStatus) await op.onStatus(input, "AWAITING_APPROVAL", { approvalId: id, makerEmail: ctx.staff.email, ctx });
    const who = `${rule.approversRequired === 1 ? "one approver" : `${rule.approversRequired} approvers`} (${rule.approverRoles.map(roleLabel).join(" or ")})`;
    const above = rule.threshold && money ? ` above ${formatMoney(rule.threshold, money.currency)}` : "";
    return {
      status: "held",
      approvalId: id,
      message: created
        ? `Sent for approval: this needs ${who}${above}.`
        : status === "pending"
          ? "This request is already waiting for approval."
          : "This request was approved already and sent: its approval shows the outcome.",
    };
  };
}
