"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { createStaffSchema } from "@/lib/schemas/staff";
import { createStaff, StaffExistsError } from "@/server/auth/staff";
import { defineAction } from "@/server/action-kit/define-action";
import { mustBeRole } from "@/server/roles/roles";

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
