import "server-only";
import { isDemoMode } from "@/lib/env";
import { getDb, type AppDb } from "@/server/db";
import type { Role } from "@/lib/auth/permissions";
import { createStaff, findStaffByEmail, StaffExistsError } from "./staff";

export const DEMO_PASSWORD = "brokerdesk-demo";

export const DEMO_USERS: { email: string; name: string; role: Role }[] = [
  { email: "admin@brokerdesk.test", name: "Ada Admin", role: "admin" },
  { email: "ops@brokerdesk.test", name: "Omar Operations", role: "operations" },
  { email: "support@brokerdesk.test", name: "Sofia Support", role: "support" },
  { email: "compliance@brokerdesk.test", name: "Chen Compliance", role: "compliance" },
];

/** Seeds the demo staff on the embedded defaults only (the caller checks). Idempotent. */
export async function seedDemoUsers(db: AppDb): Promise<void> {
  for (const user of DEMO_USERS) {
    if (await findStaffByEmail(db, user.email)) continue;
    try {
      await createStaff(db, { ...user, password: DEMO_PASSWORD });
    } catch (error) {
      if (!(error instanceof StaffExistsError)) throw error; // another process seeded it first
    }
  }
}

/**
 * Start-up step (instrumentation.ts): on the embedded defaults, the demo staff exist before the first request is
 * served. Opening the database does not seed anything.
 */
export async function seedDemoUsersAtStart(): Promise<void> {
  if (isDemoMode()) await seedDemoUsers(await getDb());
}
