"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { ruleFormSchema, ruleParamsOf } from "@/lib/schemas/surveillance";
import { defineAction } from "@/server/action-kit/define-action";
import { saveRule } from "@/server/surveillance/queries/alerts";

/** Creates a surveillance rule or changes one's name, parameters or on/off; the rules apply to what arrives next. */
export const saveSurveillanceRule = defineAction({
  name: "alerts.rule_save",
  permission: "alerts:rules",
  input: ruleFormSchema,
  async run(input, { db, staff, audit }) {
    const id = await saveRule(db.engine, {
      id: input.id,
      kind: input.kind,
      name: input.name,
      enabled: input.enabled,
      params: ruleParamsOf(input),
      by: staff.email,
    });
    audit.target = `surveillance_rule:${id}`;
    revalidatePath("/admin/surveillance");
    return { id };
  },
});
