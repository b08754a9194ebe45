import { z } from "zod";
import { PERMISSION_LIST, type Permission } from "@/lib/auth/permissions";
import "./messages";

/** A role's key: built-in (`admin`, …) or a custom role's, made from its name (`roleKeyOf`). */
export const ROLE_KEY_PATTERN = /^[a-z][a-z0-9-]{1,39}$/;
export const roleKeySchema = z.string().regex(ROLE_KEY_PATTERN, "Choose a role");

/** The key a custom role gets from its name: lower case, words joined by hyphens ("Order viewer" → "order-viewer"). */
export function roleKeyOf(label: string): string {
  return label
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

const permissionSchema = z.enum(PERMISSION_LIST as [Permission, ...Permission[]], { message: "Unknown permission" });

/** A custom role as its form and the roles actions take it (Admin → Roles). */
export const roleFormSchema = z.object({
  label: z
    .string()
    .trim()
    .min(2, "Enter a name of at least 2 characters")
    .max(60, "Use at most 60 characters")
    .refine((l) => ROLE_KEY_PATTERN.test(roleKeyOf(l)), "Start the name with a letter"),
  description: z.string().trim().max(300, "Use at most 300 characters"),
  permissions: z
    .array(permissionSchema)
    .min(1, "Choose at least one permission")
    .max(PERMISSION_LIST.length)
    .transform((ps) => PERMISSION_LIST.filter((p) => ps.includes(p))),
});
export type RoleFormInput = z.input<typeof roleFormSchema>;

export const updateRoleSchema = roleFormSchema.extend({ key: roleKeySchema });
export const deleteRoleSchema = z.object({ key: roleKeySchema });

/** A role as the roles page shows it: a built-in one's permissions from the code's table, a custom one's from its row. */
export interface RoleView {
  key: string;
  label: string;
  description: string;
  builtIn: boolean;
  permissions: Permission[];
  /** Enabled staff holding it, by email. */
  holders: string[];
  disabledHolders: number;
}

/** A role as a select offers it. */
export interface RoleOption {
  value: string;
  label: string;
}
