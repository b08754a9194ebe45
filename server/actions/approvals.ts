"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { approvalRuleEnabledSchema, approvalRuleSchema } from "@/lib/schemas/approvals";
import { defineAction } from "@/server/action-kit/define-action";
import {
  approveApproval,
  checkApprovalExecution,
  decideManyApprovals,
  markDecisionsSeen,
  rejectApproval,
  withdrawApproval,
} from "@/server/approvals/actions";
import { saveRule, setRuleEnabled } from "@/server/approvals/queries/rules";
import { approverRoleOptions } from "@/server/roles/roles";

/** Approves a held request; the last required approval executes it once (server/approvals/actions.ts). */
export const approveApprovalAction = defineAction(approveApproval);

/** An admin asks the upstream now about an execution whose process stopped (server/approvals/actions.ts). */
export const checkApprovalExecutionAction = defineAction(checkApprovalExecution);

/** Approves or rejects the inbox's selected requests, each on its own (server/approvals/actions.ts). */
export const decideManyApprovalsAction = defineAction(decideManyApprovals);

/** The maker has seen the decisions the header's notice listed (server/approvals/actions.ts). */
export const markDecisionsSeenAction = defineAction(markDecisionsSeen);

/** Rejects a held request with a reason; it is closed and never sent (server/approvals/actions.ts). */
export const rejectApprovalAction = defineAction(rejectApproval);

/** Turns an approval rule on or off. */
export const setApprovalRuleEnabledAction = defineAction({
  name: "approvals.rule_enable",
  permission: "approvals:rules",
  input: approvalRuleEnabledSchema,
  async run({ id, enabled }, ctx) {
    ctx.audit.target = `approval_rule:${id}`;
    const rule = await setRuleEnabled(ctx.db.engine, id, enabled, ctx.staff.email);
    revalidatePath("/admin/approvals");
    return rule;
  },
});

/** Creates an approval rule, or edits one (the input names it). */
export const saveApprovalRuleAction = defineAction({
  name: "approvals.rule_save",
  permission: "approvals:rules",
  input: approvalRuleSchema,
  async run(input, ctx) {
    const deciders = (await approverRoleOptions(ctx.db)).map((r) => r.value);
    if (input.approverRoles.some((r) => !deciders.includes(r))) {
      throw new AppError("NOT_AN_APPROVER_ROLE", "approver role cannot decide", "Check the highlighted fields.", {
        approverRoles: "Choose roles that may approve requests",
      });
    }
    const rule = await saveRule(ctx.db.engine, input, ctx.staff.email);
    ctx.audit.target = `approval_rule:${rule.id}`;
    revalidatePath("/admin/approvals");
    return rule;
  },
});

/** The maker takes back their own pending request (server/approvals/actions.ts). */
export const withdrawApprovalAction = defineAction(withdrawApproval);
