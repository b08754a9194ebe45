import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAudit } from "@/server/audit/trail";
import { prepareAppDb, type AppDb } from "@/server/db";
import { HOME_COUNTS, homeToday } from "@/server/home/today";
import { insertSyntheticOrders } from "@/server/orders/queries/synthetic";
import { testEngines } from "../helpers/engines";
import { newStaff, roleAccess } from "../helpers/staff";

const PAGES = ["/accounts", "/orders", "/admin/stream", "/approvals", "/alerts"];

for (const engine of testEngines()) {
  describe(`home page counts on ${engine.name}`, () => {
    let db: AppDb;
    let close: () => Promise<void>;
    const me = randomUUID();

    beforeAll(async () => {
      const opened = await engine.open();
      close = opened.close;
      db = await prepareAppDb(opened.engine);
      // 60 orders: statuses cycle SUBMITTED, FILLED, CANCELLED, PARTIAL_FILLED, FAILED, PENDING → 30 open.
      await insertSyntheticOrders(db.engine, { count: 60, accounts: 3, seqBase: 1 });
      // Desk-only statuses: AWAITING_APPROVAL is under way; DECLINED, WITHDRAWN and EXPIRED were never sent and are final.
      const statuses = [
        "SUBMITTED",
        "PROCESSING",
        "COMPLETED",
        "CANCELED",
        "REJECTED",
        "FAILED",
        "SUBMITTED",
        "AWAITING_APPROVAL",
        "DECLINED",
        "WITHDRAWN",
        "EXPIRED",
      ];
      for (const [i, status] of statuses.entries()) {
        await db.engine.query(
          `INSERT INTO brokerdesk.money_movements (kind, client_request_id, status, created_at, updated_at, last_event_seq)
           VALUES ('CASH_JOURNAL', $1, $2, now(), now(), $3)`,
          [`mv-${i}`, status, i + 1],
        );
      }
      for (let i = 0; i < 10; i++) {
        await appendAudit(db, {
          actorId: i % 2 ? me : randomUUID(),
          actorEmail: "x@brokerdesk.test",
          action: `test.act${i}`,
          target: `account:A${i}`,
          outcome: "success",
        });
      }
    });
    afterAll(() => close());

    it("counts open orders and movements not final, each linked to its page with the filter, as the role may see", async () => {
      const ops = await homeToday(
        db.engine,
        { id: me, ...roleAccess("operations") },
        { silenceMs: 30_000, pages: [...PAGES, "/movements"] },
      );
      expect(ops.counts).toEqual([
        { id: "open-orders", label: "Open orders", hint: expect.any(String), value: 30, href: "/orders?view=open" },
        { id: "open-movements", label: "Movements not final", hint: expect.any(String), value: 4, href: "/movements?view=not_final" },
        {
          id: "approvals-for-you",
          label: "Waiting for your decision",
          hint: expect.any(String),
          value: 0,
          href: "/approvals?status=pending",
        },
      ]);
      expect(ops.stream).toMatchObject({ state: "no-consumer", href: "/admin/stream" });

      // Support reads orders, not movements or the stream; a page not in the navigation is not linked.
      const support = await homeToday(db.engine, { id: me, ...roleAccess("support") }, { silenceMs: 30_000, pages: ["/orders"] });
      expect(support.counts.map((c) => c.id)).toEqual(["open-orders"]);
      expect(support.stream).toBeUndefined();
      const unlinked = await homeToday(db.engine, { id: me, ...roleAccess("operations") }, { silenceMs: 30_000, pages: ["/orders"] });
      expect(unlinked.counts.find((c) => c.id === "open-movements")?.href).toBeUndefined();
    });

    it("counts the approval requests still waiting and the open alerts, for the roles that read them", async () => {
      const now = Date.now();
      for (const [i, [status, expiresIn, maker]] of (
        [
          ["pending", 3_600_000, randomUUID()],
          ["pending", -1_000, randomUUID()],
          ["executed", 3_600_000, randomUUID()],
          // The admin's own request: waiting, but not for the admin's decision.
          ["pending", 3_600_000, me],
        ] as const
      ).entries()) {
        await db.engine.query(
          `INSERT INTO brokerdesk.approval_requests (action, rule_action, target, payload, payload_hash, summary, approvers_required, approver_roles, status,
             maker_id, maker_email, maker_role, expires_at)
           VALUES ('movements.cash_journal', 'movements.cash_journal', $1, '{}', $1, 's', 1, ARRAY['admin'], $2, $3, 'ops@brokerdesk.test', 'operations', $4)`,
          [`account:T${i}`, status, maker, new Date(now + expiresIn)],
        );
      }
      const admin = await homeToday(db.engine, { id: me, ...roleAccess("admin") }, { silenceMs: 30_000, pages: PAGES });
      // The admin decides: the count is the menu badge's, what waits for the admin's decision (not the admin's own).
      expect(admin.counts.find((c) => c.id === "approvals-for-you")).toMatchObject({ value: 1, href: "/approvals?status=pending" });
      expect(admin.counts.find((c) => c.id === "pending-approvals")).toBeUndefined();
      // Compliance reads without deciding: every request still waiting.
      const compliance = await homeToday(db.engine, { id: randomUUID(), ...roleAccess("compliance") }, { silenceMs: 30_000, pages: PAGES });
      expect(compliance.counts.find((c) => c.id === "pending-approvals")).toMatchObject({ value: 2, href: "/approvals?status=pending" });
      expect(compliance.counts.find((c) => c.id === "approvals-for-you")).toBeUndefined();
      expect(admin.counts.find((c) => c.id === "open-alerts")).toMatchObject({ value: 0, href: "/alerts?status=open" });
      const support = await homeToday(db.engine, { id: me, ...roleAccess("support") }, { silenceMs: 30_000, pages: PAGES });
      expect(support.counts.map((c) => c.id)).toEqual(["open-orders"]);
    });

    it("lists the staff member's own latest entries, newest first", async () => {
      const { recent } = await homeToday(db.engine, { id: me, ...roleAccess("support") }, { silenceMs: 30_000, pages: [] });
      expect(recent.map((r) => r.action)).toEqual(["test.act9", "test.act7", "test.act5", "test.act3", "test.act1"]);
    });

    it("names what an entry was about: a held request by its summary, a colleague by email, oneself not at all", async () => {
      const admin = await newStaff(db, "admin", "home.test");
      const colleague = await newStaff(db, "support", "home.test");
      const { rows } = await db.engine.query<{ id: string }>(
        `INSERT INTO brokerdesk.approval_requests (action, rule_action, target, payload, payload_hash, summary, approvers_required, approver_roles, status,
           maker_id, maker_email, maker_role, expires_at)
         VALUES ('movements.cash_journal', 'movements.cash_journal', 'account:N1', '{}', 'h-names', 'Cash journal of 600.00 USD to VBD1000035', 1,
           ARRAY['admin'], 'pending', $1, $2, 'admin', now() + interval '1 hour') RETURNING id::text`,
        [admin.id, admin.email],
      );
      const entry = (action: string, target: string) =>
        appendAudit(db, { actorId: admin.id, actorEmail: admin.email, action, target, outcome: "success" });
      await entry("auth.sign_in", `staff:${admin.id}`);
      await entry("movements.cash_journal", `approval:${rows[0].id}`);
      await entry("staff.update", `staff:${colleague.id}`);
      const { recent } = await homeToday(db.engine, { id: admin.id, ...roleAccess("admin") }, { silenceMs: 30_000, pages: [] });
      expect(recent.map((r) => [r.action, r.target === null, r.targetName])).toEqual([
        ["staff.update", false, colleague.email],
        ["movements.cash_journal", false, "Cash journal of 600.00 USD to VBD1000035"],
        ["auth.sign_in", true, undefined],
      ]);
    });

    it("a count is one entry: a permission, a page with its filter and a query", () => {
      for (const c of HOME_COUNTS) expect(c.href).toMatch(/^\/[a-z/-]+\?[a-z]+=/);
    });
  });
}
