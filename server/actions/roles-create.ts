"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { roleFormSchema } from "@/lib/schemas/roles";
import { defineAction } from "@/server/action-kit/define-action";
import { createRole } from "@/server/roles/roles";

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
