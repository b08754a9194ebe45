"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { requiredRolesSchema } from "@/lib/schemas/two-factor";
import { defineAction } from "@/server/action-kit/define-action";
import { setRequiredRoles } from "@/server/two-factor/two-factor";

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
