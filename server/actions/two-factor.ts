"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { requiredRolesSchema, startEnrolmentSchema, twoFactorCodeSchema } from "@/lib/schemas/two-factor";
import { defineAction } from "@/server/action-kit/define-action";
import { confirmEnrolment, disableTwoFactor, setRequiredRoles, startEnrolment } from "@/server/two-factor/two-factor";

/** Confirms the enrolment with a code from the app: from then on sign-in and `brokerdesk login` ask for a code. */
export const confirmTwoFactor = defineAction({
  name: "two_factor.confirm",
  permission: "security:own",
  // A step of the enrolment itself: open to a staff member whose role requires it before they have enrolled.
  enrolment: "optional",
  input: twoFactorCodeSchema,
  async run({ otp }, { db, staff, audit }) {
    audit.target = `staff:${staff.id}`;
    const confirmed = await confirmEnrolment(db, staff, otp);
    revalidatePath("/settings/security");
    return confirmed;
  },
});

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

/**
 * Sets the roles whose members must sign in with a code (Admin → Staff): a member of such a role without an
 * authenticator is sent to enrol before any other page.
 */
export const setTwoFactorRoles = defineAction({
  name: "two_factor.require_roles",
  permission: "staff:manage",
  input: requiredRolesSchema,
  async run({ roles }, { db, staff, audit }) {
    audit.target = "two_factor:roles";
    const required = await setRequiredRoles(db, roles, staff.id);
    revalidatePath("/admin/staff");
    return { roles: required };
  },
});

/** Starts (or starts again) the signed-in staff member's enrolment: a new secret, shown on the page until confirmed. */
export const startTwoFactor = defineAction({
  name: "two_factor.start",
  permission: "security:own",
  // A step of the enrolment itself: open to a staff member whose role requires it before they have enrolled.
  enrolment: "optional",
  input: startEnrolmentSchema,
  async run(_input, { db, staff, audit }) {
    audit.target = `staff:${staff.id}`;
    await startEnrolment(db, staff);
    revalidatePath("/settings/security");
    return { started: true };
  },
});
