import { describe, expect, it } from "vitest";
import type { AppDb } from "@/server/db";
import { matchRule, saveRule } from "@/server/approvals/queries/rules";
import { testEngines, withEngineDb } from "../helpers/engines";

/**
 * Among the rules an amount meets with as many approvers, the one of the lowest threshold holds it: thresholds
 * compared as numbers (they were once compared as text, so 10000 came before 500). Both engines.
 */
for (const engine of testEngines()) {
  describe(`approval rules' order (${engine.name})`, () => {
    let db: AppDb;
    withEngineDb(engine, (d) => {
      db = d;
    });

    it("takes the lowest threshold met among rules of as many approvers", async () => {
      await db.engine.query("DELETE FROM brokerdesk.approval_rules");
      const rule = (threshold: string, roles: string[]) =>
        saveRule(
          db.engine,
          { action: "movements.cash_journal", currency: "USD", threshold, approversRequired: 1, approverRoles: roles, enabled: true },
          "admin@desk.test",
        );
      await rule("10000", ["admin"]);
      const low = await rule("500", ["operations"]);
      expect(await matchRule(db.engine, "movements.cash_journal", { currency: "USD", amount: "20000" })).toMatchObject({
        id: low.id,
        threshold: "500",
        approverRoles: ["operations"],
      });
    });
  });
}
