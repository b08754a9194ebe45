"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { twoFactorCodeSchema } from "@/lib/schemas/two-factor";
import { defineAction } from "@/server/action-kit/define-action";
import { disableTwoFactor } from "@/server/two-factor/two-factor";

/** Turns two-factor sign-in off with a current code (refused when the staff member's role requires it). */
export const turnOffTwoFactor = defineAction({
  name: "two_factor.disable",
  permission: "security:own",
  input: twoFactorCodeSchema,
  async run({ otp }, { db, staff, audit }) {
    audit.target = `staff:${staff.id}`;
    await disableTwoFactor(db, staff, otp);
    revalidatePath("/settings/security");
    return { disabled: true };
  },
});
