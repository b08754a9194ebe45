import "server-only";
import { cache } from "react";
import { getDb } from "@/server/db";
import { mustEnrol } from "@/server/two-factor/two-factor";
import type { Staff } from "./staff-access";

/**
 * A role that requires two-factor sign-in: its members who have not enrolled may use nothing but the enrolment
 * (Settings → Security and its `enrolment: "optional"` actions) until they do. Pages send them there
 * (`requireStaff`); route handlers (`authorize` in server/http), `/api/live`, server actions (`defineAction`) and
 * access tokens (`authenticateBearer`) refuse them with ENROL_FIRST.
 */

/** Where a staff member enrols an authenticator: the one page open to someone whose role requires one and who has none. */
export const ENROL_PATH = "/settings/security";

/** The refusal of everything else to such a staff member (a route answers it as a 403, an action as its result). */
export const ENROL_FIRST = {
  code: "ENROL_FIRST",
  message: "Your role requires two-factor sign-in: set it up under Settings → Security first.",
} as const;

/** Whether the staff member must enrol before anything else: one statement, read once a request. */
export const mustEnrolFirst = cache(async (staff: Staff): Promise<boolean> => mustEnrol(await getDb(), staff));
