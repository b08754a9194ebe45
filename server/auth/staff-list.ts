import "server-only";
import type { Sort } from "@/lib/list-params";
import type { StaffRow, StaffSort } from "@/lib/schemas/staff-list";
import type { AppDb } from "@/server/db";
import { keysetPage } from "@/server/db/keyset";

// Each order is an expression plus the id as the tiebreak, so keyset paging holds in every order.
const SORT_SQL: Record<StaffSort, string> = { name: "lower(name)", email: "email", role: "role" };

type DbRow = Omit<StaffRow, "lastSignInAt"> & { last_sign_in_at: Date | string | null };

/** One page of staff users, sorted in SQL, with the cursor of the next page. */
export async function listStaffPage(
  db: AppDb,
  query: { sort?: Sort<StaffSort>; cursor?: string; limit: number },
): Promise<{ rows: StaffRow[]; nextCursor?: string }> {
  const sort = query.sort ?? { id: "email", desc: false };
  const { rows, nextCursor } = await keysetPage<DbRow>(db.engine, {
    columns: "id, email, name, role, disabled, (locked_until IS NOT NULL AND locked_until > now()) AS locked, last_sign_in_at",
    from: "brokerdesk.staff_users",
    where: [],
    params: [],
    sort: SORT_SQL[sort.id],
    tiebreak: "id",
    desc: sort.desc,
    cursor: query.cursor,
    limit: query.limit,
  });
  return {
    rows: rows.map(({ last_sign_in_at, ...r }) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      role: r.role,
      disabled: r.disabled,
      locked: r.locked,
      lastSignInAt: last_sign_in_at ? new Date(last_sign_in_at).toISOString() : null,
    })),
    nextCursor,
  };
}
