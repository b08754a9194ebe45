"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { setDisabledSchema } from "@/lib/schemas/staff";
import { updateStaff } from "@/server/auth/staff";
import { defineAction } from "@/server/action-kit/define-action";
import { mustExist } from "@/server/auth/staff-must-exist";
import { endCliSessions } from "@/server/cli-auth/sessions";

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
