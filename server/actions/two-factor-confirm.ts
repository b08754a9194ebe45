"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { twoFactorCodeSchema } from "@/lib/schemas/two-factor";
import { defineAction } from "@/server/action-kit/define-action";
import { confirmEnrolment } from "@/server/two-factor/two-factor";

/** Confirms the enrolment with a code from the app: from then on sign-in and `brokerdesk login` ask for a code. */
export const confirmTwoFactor = defineAction({
  name: "two_factor.confirm",
  permission: "security:own",
  input: twoFactorCodeSchema,
  async run({ otp }, { db, staff, audit }) {
    audit.target = `staff:${staff.id}`;
    const confirmed = await confirmEnrolment(db, staff, otp);
    revalidatePath("/settings/security");
    return confirmed;
  },
});
