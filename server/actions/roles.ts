"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { deleteRoleSchema, roleFormSchema, updateRoleSchema } from "@/lib/schemas/roles";
import { defineAction } from "@/server/action-kit/define-action";
import { createRole, deleteRole, updateRole } from "@/server/roles/roles";

/** A custom role from the permission list (Admin → Roles); its key is made from its name. */
export const createCustomRole = defineAction({
  name: "staff.role_create",
  permission: "staff:manage",
  input: roleFormSchema,
  async run(input, { db, staff, audit }) {
    const { key } = await createRole(db, input, staff.id);
    audit.target = `role:${key}`;
    revalidatePath("/admin/roles");
    return { key, label: input.label };
  },
});

/** Deletes a custom role nobody holds (refused while anyone does, enabled or not). */
export const deleteCustomRoleAction = defineAction({
  name: "staff.role_delete",
  permission: "staff:manage",
  input: deleteRoleSchema,
  async run({ key }, { db, audit }) {
    audit.target = `role:${key}`;
    await deleteRole(db, key);
    revalidatePath("/admin/roles");
    return { key };
  },
});

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
