"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { breakAssignSchema } from "@/lib/schemas/reconciliation";
import { defineAction } from "@/server/action-kit/define-action";
import { assignTo } from "@/server/reconciliation/breaks";

/** Assigns an open break to someone who works breaks (empty: to nobody). */
export const assignReconciliationBreak = defineAction({
  name: "reconciliation.break_assign",
  permission: "reconciliation:work",
  input: breakAssignSchema,
  async run({ breakId, assignee }, { db, audit }) {
    audit.target = `reconciliation-break:${breakId}`;
    const row = await assignTo(db.engine, breakId, assignee);
    revalidatePath(`/reconciliation/breaks/${breakId}`);
    return row;
  },
});
