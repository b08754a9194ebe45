import { z } from "zod";
import { roleKeySchema } from "./roles";
import "./messages";

/**
 * Two-factor sign-in (server/two-factor): the code that confirms an enrolment or turns it off, and the roles an
 * administrator requires it of. The code is `otp`, a name the audit trail redacts (server/audit/entry.ts).
 */
export const twoFactorCodeSchema = z.object({
  otp: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code your authenticator app shows now."),
});
export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeSchema>;

export const startEnrolmentSchema = z.object({});

export const requiredRolesSchema = z.object({ roles: z.array(roleKeySchema).max(200) });
export type RequiredRolesInput = z.infer<typeof requiredRolesSchema>;
