import "server-only";
import type { Sort } from "@/lib/list-params";
import type { StaffRow, StaffSort } from "@/lib/schemas/staff-list";
import type { AppDb } from "@/server/db";
import { selectStaffPage } from "./queries";

/** One page of staff users, sorted in SQL, with the cursor of the next page. */
export async function listStaffPage(
  db: AppDb,
  query: { sort?: Sort<StaffSort>; cursor?: string; limit: number },
): Promise<{ rows: StaffRow[]; nextCursor?: string }> {
  const { rows, nextCursor } = await selectStaffPage(db.engine, { ...query, sort: query.sort ?? { id: "email", desc: false } });
  return {
    rows: rows.map(({ last_sign_in_at, two_factor, role_label, ...r }) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      role: r.role,
      roleLabel: role_label ?? r.role,
      disabled: r.disabled,
      locked: r.locked,
      twoFactor: two_factor,
      lastSignInAt: last_sign_in_at ? new Date(last_sign_in_at).toISOString() : null,
    })),
    nextCursor,
  };
}
