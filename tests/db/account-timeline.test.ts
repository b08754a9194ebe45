import { describe, expect, it } from "vitest";
import { roleAccess } from "../helpers/staff";
import type { TimelineEntry, TimelineKind } from "@/lib/schemas/account-timeline";
import { appendAudit } from "@/server/audit/trail";
import { type AppDb } from "@/server/db";
import { accountTimeline } from "@/server/timeline/account-timeline";
import { testEngines } from "../helpers/engines";
import { useSeededDb } from "../helpers/seeded-db";

const A = "TL-ACC-1";
const B = "TL-ACC-2";
// Microseconds on purpose: the cursor must keep them, or entries tied at this time would repeat or go missing.
const T1 = "2026-01-01T10:00:00.123456Z";
const T0 = "2025-12-31T09:00:00.000001Z";

async function seed(db: AppDb) {
  const q = (sql: string, params: unknown[] = []) => db.engine.query(sql, params);
  let n = 0;
  const movement = (kind: string, at: string, cols: { account_id?: string; from_account?: string; to_account?: string }) =>
    q(
      `INSERT INTO brokerdesk.money_movements (kind, client_request_id, account_id, from_account, to_account, amount, currency, status, created_at, updated_at, last_event_seq)
       VALUES ($1, $2, $3, $4, $5, '100', 'USD', 'COMPLETED', $6, $6, 1)`,
      [kind, `crid-${++n}`, cols.account_id ?? null, cols.from_account ?? null, cols.to_account ?? null, at],
    );
  for (let i = 0; i < 4; i++) await movement("INSTANT_FUNDING", T1, { account_id: A });
  await movement("CASH_JOURNAL", T1, { from_account: A, to_account: B });
  await movement("CASH_JOURNAL", T1, { from_account: B, to_account: A });
  await movement("CASH_JOURNAL", T0, { account_id: A, to_account: A }); // names the account twice: listed once
  await movement("INSTANT_FUNDING", T1, { account_id: B }); // another account's
  for (let i = 0; i < 4; i++) {
    await q(
      `INSERT INTO brokerdesk.orders (account_id, client_order_id, symbol, side, status, placed_at, updated_at, last_event_seq)
             VALUES ($1, $2, 'AAPL', 'BUY', 'FILLED', $3, $3, 1)`,
      [i === 3 ? B : A, `co-${i}`, T1],
    );
  }
  for (let i = 0; i < 3; i++) {
    await q(
      `INSERT INTO brokerdesk.executions (execution_key, event_seq, account_id, client_order_id, symbol, side, quantity, price, filled_at)
             VALUES ($1, 1, $2, 'co-0', 'AAPL', 'BUY', '1', '10', $3)`,
      [`ex-${i}`, A, i === 2 ? T0 : T1],
    );
  }
  const rule = await q(`SELECT id FROM brokerdesk.surveillance_rules ORDER BY id LIMIT 1`);
  const ruleId = (rule.rows[0] as { id: string }).id;
  for (let i = 0; i < 2; i++) {
    await q(`INSERT INTO brokerdesk.alerts (rule_id, subject, account_id, summary, occurred_at) VALUES ($1, $2, $3, 'Large deposit', $4)`, [
      ruleId,
      `s-${i}`,
      A,
      T1,
    ]);
  }
  for (let i = 0; i < 2; i++) {
    await q(
      `INSERT INTO brokerdesk.approval_requests (action, rule_action, target, payload, payload_hash, summary, diff, approvers_required, approver_roles,
               maker_id, maker_email, maker_role, created_at, expires_at)
             VALUES ('accounts.update', 'accounts.option_level_raise', $1, '{}', 'h' || $4, 'Update', $2, 1, '{operations}', gen_random_uuid(), 'maker@x.test', 'operations', $3, $3::timestamptz + interval '1 day')`,
      [`account:${A}`, JSON.stringify([{ path: "option_level", label: "Option level", before: "LV1", after: "LV3" }]), T1, String(i)],
    );
  }
  await appendAudit(db, {
    action: "accounts.update",
    target: `account:${A}`,
    input: { account_id: A, option_level: "LV2" },
    outcome: "success",
    actorEmail: "ops@x.test",
  });
  await appendAudit(db, {
    action: "accounts.update",
    target: `account:${A}`,
    input: { account_id: A, option_level: "LV2", commission_code: "G1", w8ben_info: { city: "X" } },
    outcome: "success",
    actorEmail: "ops@x.test",
  });
  await appendAudit(db, {
    action: "accounts.reveal_pii",
    target: `account:${A}`,
    input: { account_id: A, reason: "KYC" },
    outcome: "success",
  });
  await appendAudit(db, {
    action: "accounts.update",
    target: `account:${A}`,
    input: { account_id: A },
    outcome: "failure",
    errorCode: "X",
  });
  await appendAudit(db, { action: "accounts.update", target: `account:${B}`, outcome: "success" });
  // Staff acts on the account's orders and on approval requests about it; and one on another account's order.
  await appendAudit(db, { action: "orders.place", target: `order:${A}:co-0`, outcome: "success" });
  await appendAudit(db, { action: "orders.place", target: `order:${B}:co-3`, outcome: "success" });
  const approval = (await q(`SELECT id::text AS id FROM brokerdesk.approval_requests ORDER BY id LIMIT 1`)).rows[0] as { id: string };
  await appendAudit(db, { action: "approvals.approve", target: `approval:${approval.id}`, outcome: "success", actorEmail: "admin@x.test" });
}

/** What account A has, by kind. */
const EXPECTED: Record<TimelineKind, number> = { movement: 7, order: 3, fill: 3, alert: 2, approval: 2, account: 2, staff: 4 };

for (const engine of testEngines()) {
  describe(`the account timeline on ${engine.name}`, () => {
    const db = useSeededDb(engine, seed);

    async function walk(role: string, kinds: TimelineKind[] = [], limit = 3): Promise<TimelineEntry[][]> {
      const pages: TimelineEntry[][] = [];
      let cursor: string | undefined;
      do {
        const page = await accountTimeline(db.engine, { accountId: A, role: roleAccess(role), kinds, cursor, limit });
        pages.push(page.entries);
        cursor = page.nextCursor;
      } while (cursor && pages.length < 100);
      return pages;
    }
    const count = (entries: TimelineEntry[]) => {
      const by: Partial<Record<TimelineKind, number>> = {};
      for (const e of entries) by[e.kind] = (by[e.kind] ?? 0) + 1;
      return by;
    };

    it("pages the union newest first with no duplicate and no gap, across many entries tied at one time", async () => {
      for (const limit of [1, 2, 3, 7, 50]) {
        const pages = await walk("admin", [], limit);
        const entries = pages.flat();
        expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
        expect(count(entries)).toEqual(EXPECTED);
        const times = entries.map((e) => Date.parse(e.at));
        expect(times).toEqual([...times].sort((a, b) => b - a));
        expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
      }
    });

    it("filters by kind", async () => {
      const entries = (await walk("admin", ["fill", "alert"], 2)).flat();
      expect(count(entries)).toEqual({ fill: 3, alert: 2 });
      expect(entries.find((e) => e.kind === "fill")?.href).toMatch(/^\/orders\/\d+$/);
      expect(entries.find((e) => e.kind === "alert")?.href).toMatch(/^\/alerts\/\d+$/);
    });

    it("leaves out the sources a role cannot read, even when asked for them", async () => {
      expect(count((await walk("support")).flat())).toEqual({ order: 3, fill: 3, account: 2 });
      expect(count((await walk("support", ["movement", "staff"])).flat())).toEqual({});
      expect(count((await walk("operations")).flat())).toEqual({ movement: 7, order: 3, fill: 3, approval: 2, account: 2 });
      expect(count((await walk("compliance")).flat())).toEqual(EXPECTED);
    });

    it("describes the entries: the fields an update sent, an approval's diff, a movement's link", async () => {
      const entries = (await walk("admin", [], 50)).flat();
      const updates = entries.filter((e) => e.kind === "account");
      expect(updates[0]).toMatchObject({
        title: "Account updated",
        detail: "Fields changed: commission code, w8ben info: city",
        actor: "ops@x.test",
      });
      expect(updates[1]).toMatchObject({ title: "Account updated", detail: "Fields sent: option level" });
      expect(entries.find((e) => e.kind === "approval")?.detail).toContain("Fields changed: Option level");
      expect(entries.find((e) => e.kind === "movement")?.href).toMatch(/^\/movements\/[A-Z_]+\/crid-\d+$/);
      expect(
        entries
          .filter((e) => e.kind === "staff")
          .map((e) => e.title)
          .sort(),
      ).toEqual(["Account updated", "Approval given", "Order placed by staff", "PII revealed"]);
    });

    it("ignores a cursor that is not one of its own", async () => {
      const first = await accountTimeline(db.engine, { accountId: A, role: roleAccess("admin"), limit: 2 });
      const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
      for (const cursor of [
        "not-a-cursor",
        forged(["2026", "order", "1"]),
        forged(["2026-02-30T10:00:00Z", "order", "1"]),
        forged([T1, "order", "x1"]),
        forged([T1, "approval", "1"]),
        forged([T1, "nope", "1"]),
      ]) {
        const page = await accountTimeline(db.engine, { accountId: A, role: roleAccess("admin"), cursor, limit: 2 });
        expect(page.entries.map((e) => e.key)).toEqual(first.entries.map((e) => e.key));
      }
    });
  });
}
