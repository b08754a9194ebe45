import { describe, expect, it } from "vitest";
import type { AppDb } from "@/server/db";
import { createStaff, findStaffById, updateStaff } from "@/server/auth/staff";
import { KEEP_MS } from "@/server/auth/staff-rows";
import { keptReads } from "@/server/notices/kept-reads";
import { onChange } from "@/server/notices/listen";
import { createRole } from "@/server/roles/roles";
import { testEngines, withEngineDb } from "../helpers/engines";
import { STAFF_PASSWORD } from "../helpers/staff";
import { until } from "../helpers/until";

/**
 * The session check keeps a staff row at most KEEP_MS (server/auth/staff-rows.ts): any change of a staff row or a
 * role, made however (here by plain SQL, as a script or an administrator would), sends the "staff" notice from the
 * database (migration 0210), which drops the kept rows, so the next request reads the change.
 */
for (const engine of testEngines()) {
  describe(`kept staff rows on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, async (fresh) => {
      db = fresh;
    });
    let n = 0;

    it("a row is read once within the window, and read again after any change of staff or roles", async () => {
      // A kept-reads of this test's own (the app's starts once per process, on the app's database), keeping rows far
      // longer than the app's KEEP_MS: only a notice can drop them within the test.
      expect(KEEP_MS).toBeLessThanOrEqual(2_000);
      const rows = keptReads(`staff rows test ${engine.name} ${++n}`, { topics: ["staff"], keepMs: 600_000 });
      await rows.start(db.engine);
      let notices = 0;
      const stop = await onChange(db.engine, (notice) => void (notice.topics.includes("staff") && notices++));
      const { id } = await createStaff(db, { email: `kept${n}@rows.test`, name: "Kept", role: "support", password: STAFF_PASSWORD });
      // The insert's own notice, heard before the first read (it would drop that read's row).
      await until(() => notices > 0, 10_000, "the new staff member's notice");
      stop();
      let reads = 0;
      const read = () => rows.read(db.engine, id, async () => (reads++, findStaffById(db, id)));

      expect((await read())?.disabled).toBe(false);
      expect((await read())?.disabled).toBe(false);
      expect(reads).toBe(1);

      // Disabled by plain SQL: no domain code ran, the database's trigger told every listener.
      await db.engine.query("UPDATE brokerdesk.staff_users SET disabled = true WHERE id = $1", [id]);
      await until(async () => (await read())?.disabled === true, 10_000, "the disabled row");
      expect(reads).toBe(2);

      // A role's change (its permissions) drops them too.
      await updateStaff(db, id, { disabled: false });
      await until(async () => (await read())?.disabled === false, 10_000, "the enabled row");
      const before = reads;
      await createRole(db, { label: `Viewer ${engine.name} ${n}`, description: "", permissions: ["orders:read"] }, id);
      await until(async () => (await read(), reads > before), 10_000, "a read after the role change");
    });
  });
}
