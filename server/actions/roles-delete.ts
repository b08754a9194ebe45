"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { deleteRoleSchema } from "@/lib/schemas/roles";
import { defineAction } from "@/server/action-kit/define-action";
import { deleteRole } from "@/server/roles/roles";

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
