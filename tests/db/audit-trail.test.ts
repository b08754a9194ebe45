import { describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { redactSecrets } from "@/server/audit/entry";
import { listAudit } from "@/server/audit/list";
import { appendAudit } from "@/server/audit/trail";
import { verifyAuditChain } from "@/server/audit/verify";
import { testEngines, withEngineDb } from "../helpers/engines";

for (const engine of testEngines()) {
  describe(`an assistant channel's audit entry on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, (fresh) => {
      db = fresh;
    });

    it("hashes an assistant channel's entry with its channel and token: an entry moved to another channel is found", async () => {
      const channelled = { actorEmail: "ops@brokerdesk.test", action: "tools.find_orders", outcome: "success" as const };
      await appendAudit(db, { ...channelled, channel: "mcp", tokenId: "00000000-0000-4000-8000-00000000000a" });
      expect((await listAudit(db.engine, { limit: 1 })).rows[0]).toMatchObject({
        channel: "mcp",
        tokenId: "00000000-0000-4000-8000-00000000000a",
      });
      expect(await verifyAuditChain(db.engine, { mode: "full", checkpoint: false })).toMatchObject({ ok: true, entries: 1 });
      await db.engine.transaction(async (tx) => {
        await tx.query("ALTER TABLE brokerdesk.audit_entries DISABLE TRIGGER audit_entries_no_update_delete");
        await tx.query("UPDATE brokerdesk.audit_entries SET channel = 'skills' WHERE seq = 1");
        await tx.query("ALTER TABLE brokerdesk.audit_entries ENABLE TRIGGER audit_entries_no_update_delete");
      });
      expect(await verifyAuditChain(db.engine, { mode: "full" })).toMatchObject({ ok: false, brokenSeq: 1 });
    });
  });

  describe(`audit trail on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, async (fresh) => {
      db = fresh;
      for (let i = 0; i < 5; i++) {
        await appendAudit(db, {
          actorEmail: "ops@brokerdesk.test",
          actorRole: "operations",
          action: "accounts.create",
          target: `account:${i}`,
          input: { external_account_number: `E${i}`, password: "hunter2", nested: { tax_id: "123-45-6789" } },
          upstreamRequestId: `req-${i}`,
          idempotencyKey: `key-${i}`,
          outcome: "success",
          clientIp: "10.0.0.1",
          userAgent: "vitest",
        });
      }
    });

    it("chains the entries and stores the input without secrets", async () => {
      expect(await verifyAuditChain(db.engine, { mode: "full", checkpoint: false })).toEqual({
        ok: true,
        mode: "full",
        entries: 5,
        fromSeq: 0,
        throughSeq: 5,
      });
      const { rows } = await listAudit(db.engine, { limit: 2 });
      expect(rows.map((r) => r.target)).toEqual(["account:4", "account:3"]);
      expect(rows[0].prevHash).toBe(rows[1].hash);
      expect(rows[0].input).toEqual({ external_account_number: "E4", password: "[redacted]", nested: { tax_id: "[redacted]" } });
    });

    it("refuses UPDATE, DELETE and TRUNCATE in the database itself", async () => {
      await expect(db.engine.query("UPDATE brokerdesk.audit_entries SET outcome = 'failure' WHERE seq = 2")).rejects.toThrow(/append-only/);
      await expect(db.engine.query("DELETE FROM brokerdesk.audit_entries WHERE seq = 2")).rejects.toThrow(/append-only/);
      await expect(db.engine.query("TRUNCATE brokerdesk.audit_entries")).rejects.toThrow(/append-only/);
      expect((await listAudit(db.engine)).rows).toHaveLength(5);
    });

    it("names the first entry altered behind the trigger's back", async () => {
      // A superuser can switch the trigger off; the hash chain still tells.
      await db.engine.transaction(async (tx) => {
        await tx.query("ALTER TABLE brokerdesk.audit_entries DISABLE TRIGGER audit_entries_no_update_delete");
        await tx.query("UPDATE brokerdesk.audit_entries SET target = 'account:forged' WHERE seq = 3");
        await tx.query("ALTER TABLE brokerdesk.audit_entries ENABLE TRIGGER audit_entries_no_update_delete");
      });
      expect(await verifyAuditChain(db.engine, { mode: "full" })).toMatchObject({
        ok: false,
        brokenSeq: 3,
        reason: "content does not match its hash",
      });
    });

    it("names a removed entry by the link that no longer holds", async () => {
      await db.engine.transaction(async (tx) => {
        await tx.query("ALTER TABLE brokerdesk.audit_entries DISABLE TRIGGER audit_entries_no_update_delete");
        await tx.query("UPDATE brokerdesk.audit_entries SET target = 'account:2' WHERE seq = 3");
        await tx.query("DELETE FROM brokerdesk.audit_entries WHERE seq = 4");
        await tx.query("ALTER TABLE brokerdesk.audit_entries ENABLE TRIGGER audit_entries_no_update_delete");
      });
      expect(await verifyAuditChain(db.engine, { mode: "full" })).toMatchObject({
        ok: false,
        brokenSeq: 5,
        reason: "link to the previous entry is broken",
      });
    });

    it("keeps one chain under concurrent writers", async () => {
      const fresh = await engine.open();
      try {
        const db2 = await prepareAppDb(fresh.engine);
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => appendAudit(db2, { action: "load", target: String(i), outcome: "success" })),
        );
        expect(await verifyAuditChain(db2.engine)).toMatchObject({ ok: true, entries: 20 });
      } finally {
        await fresh.close();
      }
    });
  });
}

describe("redactSecrets", () => {
  it("removes passwords, tokens, signatures and tax ids at any depth", () => {
    expect(redactSecrets({ a: 1, accessToken: "t", list: [{ x_signature: "s", taxId: "1" }], keep: "v" })).toEqual({
      a: 1,
      accessToken: "[redacted]",
      list: [{ x_signature: "[redacted]", taxId: "[redacted]" }],
      keep: "v",
    });
  });

  it("removes the PII that is masked for most roles: addresses and identity document numbers", () => {
    const input = {
      w8ben_info: { first_name: "Ada", tax_id: "X1", home_address: { street_address: "1 Main St" }, mail_address: { city: "Paris" } },
      china_connect_investor_info: { id_type: "PASSPORT", id_number: "P123" },
    };
    expect(redactSecrets(input)).toEqual({
      w8ben_info: { first_name: "Ada", tax_id: "[redacted]", home_address: "[redacted]", mail_address: "[redacted]" },
      china_connect_investor_info: { id_type: "PASSPORT", id_number: "[redacted]" },
    });
  });
});

describe("audit CSV export", () => {
  it("reads every matching entry across batches, newest first, formula-safe", async () => {
    const { AUDIT_CSV_COLUMNS, auditCsvRows } = await import("@/server/audit/export");
    const { csvLine } = await import("@/lib/csv");
    const opened = await testEngines()[0].open();
    try {
      const db = await prepareAppDb(opened.engine);
      for (let i = 0; i < 1203; i++) await appendAudit(db, { action: i % 2 ? "odd" : "even", target: `=t${i}`, outcome: "success" });
      let text = csvLine(AUDIT_CSV_COLUMNS);
      for await (const row of auditCsvRows(db.engine, { action: "odd" })) text += csvLine(row);
      const lines = text.trim().split("\r\n");
      expect(lines).toHaveLength(1 + 601);
      expect(lines[1].split(",")[0]).toBe("1202");
      expect(lines[1]).toContain(",'=t1201,");
      expect(lines.at(-1)!.split(",")[0]).toBe("2");
    } finally {
      await opened.close();
    }
  });
});

describe.each(testEngines())("audit inputs are bounded ($name)", (te) => {
  it("keeps at most a bounded part of a large input (a denied call's raw input is whatever was sent), and the chain holds", async () => {
    const opened = await te.open();
    try {
      const db = await prepareAppDb(opened.engine);
      const huge = { note: "x".repeat(5 * 1024 * 1024) };
      const entry = await appendAudit(db, { action: "staff.create", input: huge, outcome: "denied", errorCode: "FORBIDDEN" });
      const stored = entry.input as { truncated: boolean; bytes: number; preview: string };
      expect(stored).toMatchObject({ truncated: true });
      expect(stored.bytes).toBeGreaterThan(5 * 1024 * 1024);
      expect(JSON.stringify(stored).length).toBeLessThan(2 * 1024);
      const small = await appendAudit(db, { action: "staff.create", input: { email: "a@b.test" }, outcome: "denied" });
      expect(small.input).toEqual({ email: "a@b.test" });
      expect((await verifyAuditChain(db.engine)).ok).toBe(true);
    } finally {
      await opened.close();
    }
  });
});
