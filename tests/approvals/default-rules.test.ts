import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { isPendingApproval } from "@/lib/errors";
import { saveApprovalRuleAction } from "@/server/actions/approvals";
import { createCashJournalAction, createInstantFundingAction, createPositionJournalAction } from "@/server/actions/movements";
import { listRules, saveRule } from "@/server/approvals/queries/rules";
import { APP_MIGRATIONS, APP_SCHEMA } from "@/server/db";
import { migrate } from "@/server/db/engine";
import { masterAccountId } from "@/server/sandbox/seed";
import { testEngines } from "../helpers/engines";
import { useProcessFixture } from "../events/helpers";
import { ACCOUNTS } from "../sandbox/trading-helpers";
import { session } from "../helpers/desk-session";
import { sessionPerson as person } from "../helpers/staff";

/**
 * Four-eyes out of the box: a fresh database has one approval rule per kind of money movement (migration 0120; bulk
 * journals' batch from 0150, which an upgraded desk gets too, a batch being always held), so a
 * movement above its threshold waits for a second person while one below is sent, with no rule made by anyone; the
 * defaults are ordinary rules the editor changes.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));
vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);

const MAKER = person(1, "operations");
const ADMIN = person(2, "admin");
const master = masterAccountId();

for (const engine of testEngines()) {
  it(`an upgraded desk whose administrators already set rules keeps exactly those (${engine.name})`, async () => {
    const opened = await engine.open({ empty: true });
    const before = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    try {
      for (const f of fs.readdirSync(APP_MIGRATIONS).filter((f) => f < "0120"))
        fs.copyFileSync(path.join(APP_MIGRATIONS, f), path.join(before, f));
      await migrate(opened.engine, APP_SCHEMA, before);
      const own = { action: "movements.cash_journal", currency: "USD", threshold: "1000", approversRequired: 2, approverRoles: ["admin"] };
      await saveRule(opened.engine, { ...own, enabled: true } as Parameters<typeof saveRule>[1], "admin@example.test");
      expect(await migrate(opened.engine, APP_SCHEMA, APP_MIGRATIONS)).toContain("0120_default_approval_rules.sql");
      // Its own rules for the kinds it had; bulk journals, new to it, get theirs (migration 0150: a batch is always held).
      expect(await listRules(opened.engine)).toEqual([
        expect.objectContaining({ action: "movements.bulk_journals", threshold: null, approversRequired: 1 }),
        expect.objectContaining({ ...own, threshold: "1000" }),
      ]);
    } finally {
      fs.rmSync(before, { recursive: true, force: true });
      await opened.close();
    }
  });

  describe(`default approval rules on ${engine.name}`, () => {
    const fixture = useProcessFixture(engine);
    const journal = (amount: string) => ({
      client_request_id: newClientId("cj"),
      from_account: master,
      to_account: ACCOUNTS.margin,
      currency: "USD" as const,
      amount,
    });
    const journalAs = async (amount: string) => {
      session.staff = MAKER;
      return createCashJournalAction(journal(amount));
    };

    it("a fresh database holds one enabled rule per kind of movement, one approver from administrators or operations", async () => {
      const rules = await listRules(fixture().db.engine);
      expect(Object.fromEntries(rules.map((r) => [r.action, r.threshold === null ? null : Number(r.threshold)]))).toEqual({
        "movements.cash_journal": 50_000,
        "movements.position_journal": null,
        "movements.instant_funding.DEPOSIT": 100_000,
        "movements.instant_funding.WITHDRAWAL": 25_000,
        "movements.fx_request": 100_000,
        "movements.instant_exchange": 100_000,
        "movements.bulk_journals": null,
      });
      for (const r of rules) {
        expect(r).toMatchObject({ enabled: true, currency: null, approversRequired: 1 });
        expect([...r.approverRoles].sort()).toEqual(["admin", "operations"]);
      }
    });

    it("a cash journal above the default threshold is held, one below is sent; so is a withdrawal; a position journal waits", async () => {
      const below = await journalAs("49999.99");
      expect(below.ok && isPendingApproval(below.data)).toBe(false);
      expect(below).toMatchObject({ ok: true, data: { status: "COMPLETED" } });
      const above = await journalAs("50000.01");
      expect(above.ok && isPendingApproval(above.data)).toBe(true);
      expect(above).toMatchObject({
        data: { message: expect.stringContaining("one approver (Administrator or Operations) above 50,000.00") },
      });

      session.staff = MAKER;
      const withdrawal = await createInstantFundingAction({
        client_request_id: newClientId("wd"),
        account_id: ACCOUNTS.margin,
        type: "WITHDRAWAL",
        currency: "USD",
        amount: "25000.01",
      });
      expect(withdrawal.ok && isPendingApproval(withdrawal.data)).toBe(true);

      const position = await createPositionJournalAction({
        client_request_id: newClientId("pj"),
        from_account: ACCOUNTS.margin,
        to_account: ACCOUNTS.cash,
        instrument_type: "EQUITY",
        market: "US",
        symbol: "AAPL",
        quantity: "1",
      });
      expect(position.ok && isPendingApproval(position.data)).toBe(true);
    });

    it("a default rule is edited in the rules editor like any other: a higher threshold lets the same amount through", async () => {
      const rule = (await listRules(fixture().db.engine)).find((r) => r.action === "movements.cash_journal")!;
      session.staff = ADMIN;
      const saved = await saveApprovalRuleAction({
        id: rule.id,
        action: "movements.cash_journal",
        currency: "",
        threshold: "75000",
        approversRequired: 1,
        approverRoles: ["admin", "operations"],
        enabled: true,
      });
      expect(saved).toMatchObject({ ok: true, data: { id: rule.id, threshold: "75000" } });
      const sent = await journalAs("60000.00");
      expect(sent.ok && isPendingApproval(sent.data)).toBe(false);
      const held = await journalAs("75000.01");
      expect(held.ok && isPendingApproval(held.data)).toBe(true);
      expect((await listRules(fixture().db.engine)).filter((r) => r.action === "movements.cash_journal")).toHaveLength(1);
    });
  });
}
