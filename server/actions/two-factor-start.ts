"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { startEnrolmentSchema } from "@/lib/schemas/two-factor";
import { defineAction } from "@/server/action-kit/define-action";
import { startEnrolment } from "@/server/two-factor/two-factor";

/** Starts (or starts again) the signed-in staff member's enrolment: a new secret, shown on the page until confirmed. */
export const startTwoFactor = defineAction({
  name: "two_factor.start",
  permission: "security:own",
  input: startEnrolmentSchema,
  async run(_input, { db, staff, audit }) {
    audit.target = `staff:${staff.id}`;
    await startEnrolment(db, staff);
    revalidatePath("/settings/security");
    return { started: true };
  },
});
