"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { updateRoleSchema } from "@/lib/schemas/roles";
import { defineAction } from "@/server/action-kit/define-action";
import { updateRole } from "@/server/roles/roles";

/** A custom role's name, description and permissions; its holders have the new permissions at their next request. */
export const updateCustomRoleAction = defineAction({
  name: "staff.role_update",
  permission: "staff:manage",
  input: updateRoleSchema,
  async run({ key, ...change }, { db, staff, audit }) {
    audit.target = `role:${key}`;
    await updateRole(db, key, change, staff.id);
    revalidatePath("/admin/roles");
    return { key, label: change.label };
  },
});
