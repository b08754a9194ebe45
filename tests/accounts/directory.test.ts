import { describe, expect, it } from "vitest";
import { accountNumbers, rememberAccountNumbers } from "@/server/accounts/directory";
import { type AppDb } from "@/server/db";
import { testEngines, withEngineDb } from "../helpers/engines";

for (const engine of testEngines()) {
  describe(`account directory on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, async (fresh) => {
      db = fresh;
    });

    it("remembers the numbers of accounts it was shown, keeps the newest, and answers only for ids it has seen", async () => {
      await rememberAccountNumbers(db.engine, [
        { account_id: "a1", account_number: "VBD1000001" },
        { account_id: "a2", account_number: "VBD1000002" },
        { account_id: "a3", account_number: null }, // nothing to learn
      ]);
      await rememberAccountNumbers(db.engine, [{ account_id: "a2", account_number: "VBD2000002" }]);
      const known = await accountNumbers(db.engine, ["a1", "a2", "a3", "unknown", "a1", ""]);
      expect(Object.fromEntries(known)).toEqual({ a1: "VBD1000001", a2: "VBD2000002" });
      expect((await accountNumbers(db.engine, [])).size).toBe(0);
    });
  });
}
