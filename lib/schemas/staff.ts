import { z } from "zod";
import { roleKeySchema } from "./roles";
import "./messages";

/** One schema a resource: the staff forms and the staff actions parse with the same objects. */
export const emailSchema = z.string().trim().toLowerCase().email("Enter a valid email address").max(254, "Use at most 254 characters");
export const passwordSchema = z.string().min(12, "Use at least 12 characters").max(200, "Use at most 200 characters");
/** A built-in or custom role by key; that it exists is checked on the server (`mustBeRole`). */
export const roleSchema = roleKeySchema;

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Enter your password").max(200),
  redirectTo: z.string().startsWith("/").optional(),
});

/** The second step of a two-factor sign-in: the challenge the password step answered, and the authenticator's code. */
export const signInCodeSchema = z.object({
  challenge: z.string().min(1).max(200),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code your authenticator app shows."),
  redirectTo: z.string().startsWith("/").optional(),
});

export const createStaffSchema = z.object({
  email: emailSchema,
  name: z.string().trim().min(1, "Enter a name").max(120, "Use at most 120 characters"),
  role: roleSchema,
  password: passwordSchema,
});
export type CreateStaffInput = z.infer<typeof createStaffSchema>;

export const staffIdSchema = z.object({ userId: z.string().uuid() });
export const setRoleSchema = staffIdSchema.extend({ role: roleSchema });
export const setDisabledSchema = staffIdSchema.extend({ disabled: z.boolean() });
