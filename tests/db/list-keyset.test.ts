import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { listAudit, type AuditQuery } from "@/server/audit/list";
import { appendAudit } from "@/server/audit/trail";
import { createStaff } from "@/server/auth/staff";
import { listStaffPage } from "@/server/auth/staff-list";
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
  });
}
