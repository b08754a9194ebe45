"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { staffIdSchema } from "@/lib/schemas/staff";
import { updateStaff } from "@/server/auth/staff";
import { defineAction } from "@/server/action-kit/define-action";
import { mustExist } from "@/server/auth/staff-must-exist";

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
