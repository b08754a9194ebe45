"use server";
import "server-only";
import { signOut } from "@/auth";
import { appendAudit } from "@/server/audit/trail";
import { currentStaff } from "@/server/auth/guard";
import { requestMeta } from "@/server/auth/request-meta";
import { revokeSessions } from "@/server/auth/staff";
import { getDb } from "@/server/db";

/** Signing out ends every session of the user (revocation), and is audited. */
export async function signOutAction(): Promise<void> {
  const staff = await currentStaff();
  if (staff) {
    const db = await getDb();
    await revokeSessions(db, staff.id);
    await appendAudit(db, {
      actorId: staff.id,
      actorEmail: staff.email,
      actorRole: staff.role,
      action: "auth.sign_out",
      target: `staff:${staff.id}`,
      outcome: "success",
      ...(await requestMeta()),
    });
  }
  await signOut({ redirectTo: "/sign-in" });
}
