import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { type AuditInput } from "@/server/audit/entry";
import { getAuditEntry, listAudit, relatedAuditEntries, type AuditQuery } from "@/server/audit/list";
import { appendAudit } from "@/server/audit/trail";
import { auditCsvRows } from "@/server/audit/export";
import { auditListParams } from "@/lib/schemas/audit";
import { testEngines } from "../helpers/engines";

const OPS = { actorEmail: "ops@brokerdesk.test", actorRole: "operations" };
const COMP = { actorEmail: "compliance@brokerdesk.test", actorRole: "compliance" };
const ADMIN = { actorEmail: "admin@brokerdesk.test", actorRole: "admin" };
const APPROVAL = "7d1f3a52-0000-4000-8000-000000000001";

/** A small trail of a reviewer's cases: movements, an approval made, decided and executed, orders, sign-ins. */
const ENTRIES: AuditInput[] = [
  { ...OPS, action: "auth.sign_in", outcome: "success" }, // 1
  { ...OPS, action: "movements.cash_journal", target: `approval:${APPROVAL}`, input: { amount: "500000" }, outcome: "held" }, // 2
  { ...ADMIN, action: "approvals.approve", target: `approval:${APPROVAL}`, input: { id: APPROVAL }, outcome: "success" }, // 3
  {
    ...ADMIN,
    action: "movements.cash_journal",
    target: "account:ACC1",
    upstreamRequestId: "req-exec",
    input: { approvalId: APPROVAL, maker: "ops@brokerdesk.test", checker: "admin@brokerdesk.test", payload: {} },
    outcome: "success",
  }, // 4
  { ...OPS, action: "orders.cancel", target: "order:ACC1:c-1", upstreamRequestId: "req-cancel", outcome: "success" }, // 5
  { ...OPS, action: "orders.replace", target: "order:ACC10:c-2", outcome: "failure", errorCode: "UPSTREAM" }, // 6
  { ...COMP, action: "alerts.decide", target: "alert:9", outcome: "success" }, // 7
  { ...OPS, action: "movements.instant_funding", target: "account:ACC1", upstreamRequestId: "req-cancel", outcome: "success" }, // 8
  { ...COMP, action: "approvals.reject", target: "approval:other", input: { id: "other", reason: "no" }, outcome: "success" }, // 9
  { ...OPS, action: "movementsx.other", target: "account:ACC10", outcome: "denied", errorCode: "FORBIDDEN" }, // 10
  {
    actorEmail: "maker2@brokerdesk.test",
    actorRole: "operations",
    action: "approvals.withdraw",
    target: "approval:w",
    input: { id: "w" },
    outcome: "success",
  }, // 11
  { action: "approvals.expire", target: "approval:x", input: { approvalId: "x", maker: "maker2@brokerdesk.test" }, outcome: "success" }, // 12
];

for (const engine of testEngines()) {
  describe(`the audit trail's reviewer filters on ${engine.name}`, () => {
    let db: AppDb;
    let close: () => Promise<void>;
    const seqs = async (q: AuditQuery) => (await listAudit(db.engine, { limit: 500, ...q })).rows.map((r) => r.seq);

    beforeAll(async () => {
      const opened = await engine.open();
      close = opened.close;
      db = await prepareAppDb(opened.engine);
      for (const e of ENTRIES) await appendAudit(db, e);
    });
    afterAll(() => close());

    it("action: exact, or a prefix when it ends with a dot or a star", async () => {
      expect(await seqs({ action: "movements.cash_journal" })).toEqual([4, 2]);
      expect(await seqs({ action: "movements." })).toEqual([8, 4, 2]);
      expect(await seqs({ action: "movements*" })).toEqual([10, 8, 4, 2]);
      expect(await seqs({ action: "movements" })).toEqual([]);
    });

    it("actor: an email exactly, or an email's beginning; role", async () => {
      expect(await seqs({ actor: "compliance@brokerdesk.test" })).toEqual([9, 7]);
      expect(await seqs({ actor: "admin" })).toEqual([4, 3]);
      expect(await seqs({ actor: "brokerdesk.test" })).toEqual([]);
      expect(await seqs({ actor: "compliance@" })).toEqual([9, 7]);
      // A prefix ending in any character is a range, never an error.
      for (const actor of ["é", "\u{10FFFF}", "\uD7FF", "ops@brokerdesk.tes\u{1F600}"]) expect(await seqs({ actor })).toEqual([]);
      expect(await seqs({ role: "operations" })).toEqual([11, 10, 8, 6, 5, 2, 1]);
    });

    it("target: exact with a kind, and an account id matches the account and its orders (not a longer id)", async () => {
      expect(await seqs({ target: `approval:${APPROVAL}` })).toEqual([3, 2]);
      expect(await seqs({ target: "ACC1" })).toEqual([8, 5, 4]);
      expect(await seqs({ target: "ACC10" })).toEqual([10, 6]);
      expect(await seqs({ target: "alert:9" })).toEqual([7]);
    });

    it("outcome, upstream request id", async () => {
      expect(await seqs({ outcome: "denied" })).toEqual([10]);
      expect(await seqs({ request: "req-cancel" })).toEqual([8, 5]);
      expect(await seqs({ request: "nope" })).toEqual([]);
    });

    it("maker or checker: what that person made or decided", async () => {
      // The maker: the held request and the execution naming them maker (not their other entries).
      expect(await seqs({ party: "ops@brokerdesk.test" })).toEqual([4, 2]);
      // The checker: the approval and the execution naming them checker.
      expect(await seqs({ party: "admin@brokerdesk.test" })).toEqual([4, 3]);
      // A rejection is a decision too.
      expect(await seqs({ party: "compliance@brokerdesk.test" })).toEqual([9]);
      // A withdrawal by its maker, and an expiry naming the maker.
      expect(await seqs({ party: "maker2@brokerdesk.test" })).toEqual([12, 11]);
    });

    it("date range: UTC days, both included", async () => {
      // The day the entries were written (the database's clock), not the test's "now": a run across midnight.
      const at = (await listAudit(db.engine, { limit: 1 })).rows[0].at.getTime();
      const day = (offset: number) => new Date(at + offset * 86_400_000).toISOString().slice(0, 10);
      const [yesterday, today, tomorrow] = [day(-1), day(0), day(1)];
      expect(await seqs({ from: today, to: today })).toHaveLength(12);
      expect(await seqs({ from: tomorrow })).toEqual([]);
      expect(await seqs({ to: yesterday })).toEqual([]);
      expect(await seqs({ from: yesterday, action: "alerts.decide" })).toEqual([7]);
    });

    it("filters combine, and keyset paging under a filter neither repeats nor skips, in each order", async () => {
      expect(await seqs({ role: "operations", outcome: "success", target: "ACC1" })).toEqual([8, 5]);
      for (const sort of [
        { id: "seq", desc: true },
        { id: "seq", desc: false },
        { id: "action", desc: false },
        { id: "actor", desc: true },
      ] as const) {
        const all = await seqs({ role: "operations", sort });
        const paged: number[] = [];
        let cursor: string | undefined;
        do {
          const page = await listAudit(db.engine, { role: "operations", sort, limit: 2, cursor });
          paged.push(...page.rows.map((r) => r.seq));
          cursor = page.nextCursor;
        } while (cursor);
        expect(paged).toEqual(all);
        expect(paged).toHaveLength(7);
      }
    });

    it("the CSV rows are exactly the filter's entries", async () => {
      const rows: unknown[] = [];
      for await (const row of auditCsvRows(db.engine, { action: "movements.", target: "ACC1" })) rows.push(row[0]);
      expect(rows).toEqual([8, 4]);
    });

    it("an entry, and its neighbours by upstream request and by target", async () => {
      const entry = (await getAuditEntry(db.engine, 5))!;
      expect(entry).toMatchObject({ seq: 5, target: "order:ACC1:c-1", upstreamRequestId: "req-cancel" });
      expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await getAuditEntry(db.engine, 999)).toBeUndefined();
      const related = await relatedAuditEntries(db.engine, entry);
      expect(related.sameRequest.map((r) => r.seq)).toEqual([8]);
      expect(related.sameTarget).toEqual([]);
      const held = await relatedAuditEntries(db.engine, (await getAuditEntry(db.engine, 2))!);
      expect(held.sameTarget.map((r) => r.seq)).toEqual([3]);
    });
  });
}

describe("audit filter URL state", () => {
  it("parses every filter, drops bad values, and round-trips", () => {
    const p = auditListParams.parse({
      action: "movements.",
      actor: "Ops@Brokerdesk.test",
      role: "ops",
      target: "ACC1",
      party: "a@b.c",
      request: "r1",
      from: "2026-11-01",
      to: "nope",
    });
    expect(auditListParams.filters(p)).toEqual({
      action: "movements.",
      actor: "ops@brokerdesk.test",
      role: undefined,
      target: "ACC1",
      outcome: undefined,
      party: "a@b.c",
      request: "r1",
      from: "2026-11-01",
      to: undefined,
    });
    expect(auditListParams.filterQuery(p)).toBe(
      "?action=movements.&actor=ops%40brokerdesk.test&target=ACC1&party=a%40b.c&request=r1&from=2026-11-01",
    );
  });
});
