"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { breakCommentSchema } from "@/lib/schemas/reconciliation";
import { defineAction } from "@/server/action-kit/define-action";
import { commentOn } from "@/server/reconciliation/breaks";

/** A comment on a break, open or closed (the record of what was found out). */
export const commentReconciliationBreak = defineAction({
  name: "reconciliation.break_comment",
  permission: "reconciliation:work",
  input: breakCommentSchema,
  async run({ breakId, body }, { db, staff, audit }) {
    audit.target = `reconciliation-break:${breakId}`;
    const comment = await commentOn(db.engine, breakId, staff.email, body);
    revalidatePath(`/reconciliation/breaks/${breakId}`);
    return comment;
  },
});
