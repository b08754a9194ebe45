"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { staffIdSchema } from "@/lib/schemas/staff";
import { defineAction } from "@/server/action-kit/define-action";
import { resetTwoFactor } from "@/server/two-factor/two-factor";

/**
 * Removes a staff member's authenticator (a lost phone): they sign in with their password and enrol again. Not
 * one's own (that is turned off with a code on Settings → Security).
 */
export const resetStaffTwoFactor = defineAction({
  name: "staff.reset_two_factor",
  permission: "staff:manage",
  input: staffIdSchema,
  async run({ userId }, { db, staff, audit }) {
    audit.target = `staff:${userId}`;
    if (userId === staff.id)
      throw new AppError("SELF_CHANGE", "own account", "Turn your own two-factor sign-in off on Settings → Security.");
    if (!(await resetTwoFactor(db, userId))) {
      throw new AppError("NOT_ENROLLED", `${userId} has no authenticator`, "This staff member has no authenticator to reset.");
    }
    revalidatePath("/admin/staff");
    return { userId };
  },
});
