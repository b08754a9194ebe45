"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { approvalRuleEnabledSchema } from "@/lib/schemas/approvals";
import { setRuleEnabled } from "@/server/approvals/queries/rules";
import { defineAction } from "@/server/action-kit/define-action";

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
