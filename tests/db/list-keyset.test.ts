import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { listAudit, type AuditQuery } from "@/server/audit/list";
import { appendAudit } from "@/server/audit/trail";
import { createStaff } from "@/server/auth/staff";
import { listStaffPage } from "@/server/auth/staff-list";
import { listActivityPage } from "@/server/activities/explorer";
import { insertSyntheticActivities } from "@/server/activities/queries/synthetic";
import { listApprovals } from "@/server/approvals/requests";
import { listMovementPage } from "@/server/movement-list/queries/list";
import { listOrders } from "@/server/orders/queries/blotter";
import { insertSyntheticOrders } from "@/server/orders/queries/synthetic";
import { listBreaks } from "@/server/reconciliation/queries";
import { listAlerts } from "@/server/surveillance/queries/alerts";
import { testEngines } from "../helpers/engines";

/** Walks every page of a keyset listing, as the table's Next button does. */
async function walk<T>(read: (cursor?: string) => Promise<{ rows: T[]; nextCursor?: string }>): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(page.rows);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 50);
  return pages;
}

for (const engine of testEngines()) {
  describe(`sorted keyset listings on ${engine.name}`, () => {
    let db: AppDb;
    let close: () => Promise<void>;
    const actions = ["staff.create", "accounts.update", "auth.sign_in", "accounts.create", "auth.sign_out"];

    beforeAll(async () => {
      const opened = await engine.open();
      close = opened.close;
      db = await prepareAppDb(opened.engine);
      // Ties on purpose (the same action and actor more than once), and one entry without an actor.
      for (let i = 0; i < 11; i++) {
        await appendAudit(db, {
          action: actions[i % actions.length],
          actorEmail: i === 7 ? null : `user${i % 3}@example.test`,
          outcome: "success",
        });
      }
      for (const name of ["Zoe", "adam", "Mia", "bea", "Leo"]) {
        await createStaff(db, { email: `${name.toLowerCase()}@list.test`, name, role: "support", password: "a-long-enough-password" });
      }
    });
    afterAll(() => close());

    const auditPages = (query: AuditQuery) => walk((cursor) => listAudit(db.engine, { ...query, cursor, limit: 3 }));

    it("pages the trail newest first by default, each entry once", async () => {
      const seqs = (await auditPages({})).flat().map((r) => r.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
      expect(new Set(seqs).size).toBe(11);
    });

    it("sorts the trail in SQL across pages, with ties broken by seq", async () => {
      for (const [id, key] of [
        ["action", (r: { action: string }) => r.action],
        ["actor", (r: { actorEmail: string | null }) => r.actorEmail ?? ""],
      ] as const) {
        for (const desc of [false, true]) {
          const pages = await auditPages({ sort: { id, desc } });
          expect(pages.length).toBe(4);
          const rows = pages.flat();
          expect(rows).toHaveLength(11);
          const keys = rows.map((r) => key(r as never));
          const sorted = [...keys].sort();
          expect(keys).toEqual(desc ? sorted.reverse() : sorted);
          expect(new Set(rows.map((r) => r.seq)).size).toBe(11);
        }
      }
      const oldest = (await auditPages({ sort: { id: "seq", desc: false } })).flat().map((r) => r.seq);
      expect(oldest).toEqual([...oldest].sort((a, b) => a - b));
    });

    it("keeps the filter on every page", async () => {
      const rows = (await auditPages({ action: "auth.", sort: { id: "action", desc: false } })).flat();
      expect(rows.map((r) => r.action)).toEqual(["auth.sign_in", "auth.sign_in", "auth.sign_out", "auth.sign_out"]);
    });

    it("sorts staff by name (case-insensitive), email or role across pages", async () => {
      const read = (sort: { id: "name" | "email" | "role"; desc: boolean }) =>
        walk((cursor) => listStaffPage(db, { sort, cursor, limit: 2 }));
      expect((await read({ id: "name", desc: false })).flat().map((u) => u.name)).toEqual(["adam", "bea", "Leo", "Mia", "Zoe"]);
      expect((await read({ id: "email", desc: true })).flat().map((u) => u.email)).toEqual([
        "zoe@list.test",
        "mia@list.test",
        "leo@list.test",
        "bea@list.test",
        "adam@list.test",
      ]);
      expect((await read({ id: "role", desc: false })).flat()).toHaveLength(5);
    });

    it("reads a cursor that is not one of ours as the first page", async () => {
      const first = await listAudit(db.engine, { limit: 3 });
      expect((await listAudit(db.engine, { limit: 3, cursor: "not-a-cursor" })).rows).toEqual(first.rows);
    });

    /** A cursor as a hand-edited link carries it: base64url of any JSON. */
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const FORGED = [forged(["x", "y"]), forged([1, 2]), forged(["orders.cancel", 2]), forged(["2026-02-30T00:00:00.000Z", "x"])];

    it("reads a forged cursor (a pair of any types, the older untagged form) as the first page of every keyset listing", async () => {
      await insertSyntheticOrders(db.engine, { count: 5, accounts: 2 });
      await insertSyntheticActivities(db.engine, { count: 5, accounts: 2, start: new Date(Date.now() - 60_000) });
      const listings: [string, (cursor?: string) => Promise<{ rows: unknown[] }>][] = [
        ["audit", (cursor) => listAudit(db.engine, { cursor, limit: 3 })],
        ["audit by action", (cursor) => listAudit(db.engine, { sort: { id: "action", desc: false }, cursor, limit: 3 })],
        ["staff", (cursor) => listStaffPage(db, { cursor, limit: 2 })],
        ["orders", (cursor) => listOrders(db.engine, {}, { cursor, limit: 2 })],
        ["movements", (cursor) => listMovementPage(db.engine, {}, { cursor, limit: 2 })],
        ["activities", (cursor) => listActivityPage(db.engine, {}, { cursor, limit: 2 })],
        ["alerts", (cursor) => listAlerts(db.engine, { cursor, limit: 2 })],
        ["breaks", (cursor) => listBreaks(db.engine, { cursor, limit: 2 })],
        ["approvals", (cursor) => listApprovals(db, {}, { cursor, limit: 2 })],
      ];
      for (const [name, read] of listings) {
        const first = (await read()).rows;
        for (const cursor of FORGED) expect((await read(cursor)).rows, `${name} ${cursor}`).toEqual(first);
      }
      expect((await listOrders(db.engine, {}, { limit: 2 })).rows).toHaveLength(2);
      expect((await listActivityPage(db.engine, {}, { limit: 2 })).rows).toHaveLength(2);
    });

    it("reads a cursor of another sort as the first page, not a page of this sort after a value of that one", async () => {
      const sorts = [
        { id: "seq", desc: true },
        { id: "seq", desc: false },
        { id: "action", desc: false },
        { id: "action", desc: true },
        { id: "actor", desc: false },
      ] as const;
      for (const from of sorts) {
        const { nextCursor } = await listAudit(db.engine, { sort: from, limit: 4 });
        expect(nextCursor).toBeDefined();
        for (const to of sorts) {
          if (to === from) continue;
          const first = await listAudit(db.engine, { sort: to, limit: 4 });
          expect((await listAudit(db.engine, { sort: to, cursor: nextCursor, limit: 4 })).rows, `${from.id} → ${to.id}`).toEqual(
            first.rows,
          );
        }
      }
      // Staff: a cursor of the name order is not one of the email order's (both text: no error, a wrong page).
      const byName = await listStaffPage(db, { sort: { id: "name", desc: false }, limit: 2 });
      const byEmail = await listStaffPage(db, { sort: { id: "email", desc: false }, limit: 2 });
      expect((await listStaffPage(db, { sort: { id: "email", desc: false }, cursor: byName.nextCursor, limit: 2 })).rows).toEqual(
        byEmail.rows,
      );
    });
  });
}
