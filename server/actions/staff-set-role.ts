"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { setRoleSchema } from "@/lib/schemas/staff";
import { updateStaff } from "@/server/auth/staff";
import { defineAction } from "@/server/action-kit/define-action";
import { mustExist } from "@/server/auth/staff-must-exist";
import { mustBeRole } from "@/server/roles/roles";

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
