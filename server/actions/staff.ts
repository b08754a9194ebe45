"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { createStaffSchema, setDisabledSchema, setRoleSchema, staffIdSchema } from "@/lib/schemas/staff";
import { createStaff, StaffExistsError, updateStaff } from "@/server/auth/staff";
import { defineAction } from "./safe-action";

function mustExist<T>(user: T | undefined): T {
  if (!user) throw new AppError("NOT_FOUND", "staff user not found", "That staff user no longer exists.");
  return user;
}

export const createStaffUser = defineAction({
  name: "staff.create",
  permission: "staff:manage",
  input: createStaffSchema,
  async run(input, { db, audit }) {
    try {
      const user = await createStaff(db, input);
      audit.target = `staff:${user.id}`;
      revalidatePath("/admin/staff");
      return { id: user.id, email: user.email };
    } catch (error) {
      if (error instanceof StaffExistsError) {
        throw new AppError(error.code, error.message, error.message, { email: "A staff user with this email already exists" });
      }
      throw error;
    }
  },
});

export const setStaffRole = defineAction({
  name: "staff.set_role",
  permission: "staff:manage",
  input: setRoleSchema,
  async run({ userId, role }, { db, staff, audit }) {
    audit.target = `staff:${userId}`;
    if (userId === staff.id) throw new AppError("SELF_CHANGE", "own role", "You cannot change your own role.");
    mustExist(await updateStaff(db, userId, { role }));
    revalidatePath("/admin/staff");
    return { userId, role };
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
    revalidatePath("/admin/staff");
    return { userId, disabled };
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
