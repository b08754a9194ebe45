import "server-only";
import { isDemoMode } from "@/lib/env";
import { getDb, type AppDb } from "@/server/db";
import type { Role } from "@/lib/auth/permissions";
import { disableStaffByEmail } from "./queries";
import { logger } from "@/server/log";
import { createStaff, findStaffByEmail, StaffExistsError } from "./staff";

export const DEMO_PASSWORD = "brokerdesk-demo";

export const DEMO_USERS: { email: string; name: string; role: Role }[] = [
  { email: "admin@brokerdesk.test", name: "Ada Admin", role: "admin" },
  { email: "ops@brokerdesk.test", name: "Omar Operations", role: "operations" },
  // A second operator: the checker of ops's requests when an approval rule names only operations.
  { email: "ops2@brokerdesk.test", name: "Olga Operations", role: "operations" },
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
 * The demo staff share a published password: when the same database is used with a real upstream, they are
 * disabled (and their sessions ended), never left able to sign in. Returns the emails it disabled.
 */
export async function disableDemoUsers(db: AppDb): Promise<string[]> {
  return disableStaffByEmail(
    db.engine,
    DEMO_USERS.map((u) => u.email),
  );
}

/**
 * Start-up step (instrumentation.ts): on the embedded defaults, the demo staff exist before the first request is
 * served; with a real upstream they are disabled. Opening the database does neither.
 */
export async function seedDemoUsersAtStart(): Promise<void> {
  const db = await getDb();
  if (isDemoMode()) return seedDemoUsers(db);
  const disabled = await disableDemoUsers(db);
  if (disabled.length) logger.warn({ disabled }, "demo staff disabled: a real upstream is configured");
}
