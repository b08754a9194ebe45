"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { approvalRuleSchema } from "@/lib/schemas/approvals";
import { saveRule } from "@/server/approvals/queries/rules";
import { defineAction } from "@/server/action-kit/define-action";
import { AppError } from "@/lib/errors";
import { approverRoleOptions } from "@/server/roles/roles";

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
