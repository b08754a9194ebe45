import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { lastCheckpoint } from "@/server/audit/queries";
import { appendAudit } from "@/server/audit/trail";
import { verifyAuditChain } from "@/server/audit/verify";
import { testEngines } from "../helpers/engines";

/** Changes an entry behind the append-only trigger's back, as a superuser could. */
async function tamper(db: AppDb, sql: string): Promise<void> {
  await db.engine.transaction(async (tx) => {
    await tx.query("ALTER TABLE brokerdesk.audit_entries DISABLE TRIGGER audit_entries_no_update_delete");
    await tx.query(sql);
    await tx.query("ALTER TABLE brokerdesk.audit_entries ENABLE TRIGGER audit_entries_no_update_delete");
  });
}

const append = async (db: AppDb, n: number, from = 0) => {
  for (let i = 0; i < n; i++) await appendAudit(db, { action: "load", target: `t${from + i}`, input: { i: from + i }, outcome: "success" });
};

describe.each(testEngines())("incremental audit chain verification ($name)", (te) => {
  let db: AppDb;
  let close: () => Promise<void>;
  beforeEach(async () => {
    const opened = await te.open();
    close = opened.close;
    db = await prepareAppDb(opened.engine);
  });
  afterEach(() => close());

  it("checks only the entries after the last checkpoint, and writes a new one", async () => {
    await append(db, 30);
    expect(await verifyAuditChain(db.engine)).toEqual({ ok: true, mode: "incremental", entries: 30, fromSeq: 0, throughSeq: 30 });
    expect(await lastCheckpoint(db.engine)).toMatchObject({ seq: 30 });
    await append(db, 7, 30);
    // The checkpoint's own entry is re-read and re-hashed, then the 7 new ones.
    expect(await verifyAuditChain(db.engine)).toEqual({ ok: true, mode: "incremental", entries: 8, fromSeq: 30, throughSeq: 37 });
    expect(await verifyAuditChain(db.engine)).toEqual({ ok: true, mode: "incremental", entries: 1, fromSeq: 37, throughSeq: 37 });
    expect(await verifyAuditChain(db.engine, { mode: "full" })).toMatchObject({ ok: true, mode: "full", entries: 37 });
  });

  it("finds an entry altered after the checkpoint, and a checkpoint entry altered", async () => {
    await append(db, 10);
    expect((await verifyAuditChain(db.engine)).ok).toBe(true);
    await append(db, 5, 10);
    await tamper(db, "UPDATE brokerdesk.audit_entries SET target = 'forged' WHERE seq = 13");
    expect(await verifyAuditChain(db.engine)).toMatchObject({
      ok: false,
      mode: "incremental",
      brokenSeq: 13,
      reason: "content does not match its hash",
      fromSeq: 10,
    });
    // No checkpoint is written past a broken chain.
    expect(await lastCheckpoint(db.engine)).toMatchObject({ seq: 10 });
    await tamper(db, "UPDATE brokerdesk.audit_entries SET target = 'forged' WHERE seq = 10");
    expect(await verifyAuditChain(db.engine)).toMatchObject({
      ok: false,
      brokenSeq: 10,
      reason: "the checkpoint's entry no longer matches its hash",
    });
  });

  it("finds a removed entry after the checkpoint by its broken link; a change before the checkpoint takes the full mode", async () => {
    await append(db, 10);
    await verifyAuditChain(db.engine);
    await append(db, 4, 10);
    await tamper(db, "DELETE FROM brokerdesk.audit_entries WHERE seq = 12");
    expect(await verifyAuditChain(db.engine)).toMatchObject({ ok: false, brokenSeq: 13, reason: "link to the previous entry is broken" });
    await tamper(db, "UPDATE brokerdesk.audit_entries SET target = 'forged' WHERE seq = 4");
    expect(await verifyAuditChain(db.engine, { mode: "full" })).toMatchObject({ ok: false, mode: "full", brokenSeq: 4 });
  });

  it("starts from the newest checkpoint by number, past 9 → 10 and beyond", async () => {
    await append(db, 9);
    expect(await verifyAuditChain(db.engine)).toMatchObject({ ok: true, fromSeq: 0, throughSeq: 9 });
    await append(db, 3, 9);
    expect(await verifyAuditChain(db.engine)).toMatchObject({ ok: true, fromSeq: 9, throughSeq: 12, entries: 4 });
    expect(await verifyAuditChain(db.engine)).toMatchObject({ ok: true, fromSeq: 12, throughSeq: 12, entries: 1 });
  });

  it("keeps the checkpoints append-only", async () => {
    await append(db, 3);
    await verifyAuditChain(db.engine);
    await expect(db.engine.query("UPDATE brokerdesk.audit_checkpoints SET seq = 1")).rejects.toThrow(/append-only/);
    await expect(db.engine.query("DELETE FROM brokerdesk.audit_checkpoints")).rejects.toThrow(/append-only/);
  });
});
