"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { createStaffSchema, setDisabledSchema, setRoleSchema, staffIdSchema } from "@/lib/schemas/staff";
import { defineAction } from "@/server/action-kit/define-action";
import { createStaff, revokeSessions, StaffExistsError, updateStaff } from "@/server/auth/staff";
import { mustExist } from "@/server/auth/staff-must-exist";
import { endCliSessions } from "@/server/cli-auth/sessions";
import { mustBeRole } from "@/server/roles/roles";
import { resetTwoFactor } from "@/server/two-factor/two-factor";

export const createStaffUser = defineAction({
  name: "staff.create",
  permission: "staff:manage",
  input: createStaffSchema,
  async run(input, { db, audit }) {
    await mustBeRole(db, input.role);
    try {
      const user = await createStaff(db, input);
      audit.target = `staff:${user.id}`;
      revalidatePath("/admin/staff");
      return { id: user.id, email: user.email };
    } catch (error) {
      if (error instanceof StaffExistsError) {
        // The field says what is wrong; the banner only points at it (the same words twice read as two problems).
        throw new AppError(error.code, error.message, "Check the highlighted fields.", {
          email: "A staff user with this email already exists",
        });
      }
      throw error;
    }
  },
});

/**
 * Removes a staff member's authenticator (a lost phone): they sign in with their password and enrol again. Not
 * one's own (that is turned off with a code on Settings → Security). What was signed in with the lost authenticator
 * ends with it: their desk sessions and their command-line sessions (whose logins asked for its code).
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
    await revokeSessions(db, userId);
    await endCliSessions(db, userId);
    revalidatePath("/admin/staff");
    return { userId };
  },
});

export const setStaffDisabled = defineAction({
  name: "staff.set_disabled",
  permission: "staff:manage",
  input: setDisabledSchema,
  async run({ userId, disabled }, { db, staff, audit }) {
    audit.target = `staff:${userId}`;
    if (userId === staff.id) throw new AppError("SELF_CHANGE", "own account", "You cannot disable your own account.");
    mustExist(await updateStaff(db, userId, { disabled }));
    // Their command-line sessions end with it (a session is refused while its owner is disabled, and stays ended).
    if (disabled) await endCliSessions(db, userId);
    revalidatePath("/admin/staff");
    return { userId, disabled };
  },
});

export const setStaffRole = defineAction({
  name: "staff.set_role",
  permission: "staff:manage",
  input: setRoleSchema,
  async run({ userId, role }, { db, staff, audit }) {
    audit.target = `staff:${userId}`;
    if (userId === staff.id) throw new AppError("SELF_CHANGE", "own role", "You cannot change your own role.");
    await mustBeRole(db, role);
    mustExist(await updateStaff(db, userId, { role }));
    revalidatePath("/admin/staff");
    return { userId, role };
  },
});

export const unlockStaff = defineAction({
  name: "staff.unlock",
  permission: "staff:manage",
  input: staffIdSchema,
  async run({ userId }, { db, audit }) {
    audit.target = `staff:${userId}`;
    mustExist(await updateStaff(db, userId, { unlock: true }));
    revalidatePath("/admin/staff");
    return { userId };
  },
});
