"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { breakCloseSchema } from "@/lib/schemas/reconciliation";
import { defineAction } from "@/server/action-kit/define-action";
import { closeWith } from "@/server/reconciliation/breaks";

/** Closes an open break with how it was resolved; a later run that sees the same difference opens a new one. */
export const closeReconciliationBreak = defineAction({
  name: "reconciliation.break_close",
  permission: "reconciliation:work",
  input: breakCloseSchema,
  async run({ breakId, resolution }, { db, staff, audit }) {
    audit.target = `reconciliation-break:${breakId}`;
    const row = await closeWith(db.engine, breakId, staff.email, resolution);
    revalidatePath(`/reconciliation/breaks/${breakId}`);
    revalidatePath("/reconciliation");
    return row;
  },
});
