import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { approvalRuleSchema } from "@/lib/schemas/approvals";
import { positionJournalSchema } from "@/lib/schemas/movements";
import { optionExerciseSchema } from "@/lib/schemas/option-exercise";
import { issueTradingCredentialSchema, revokeTradingCredentialSchema } from "@/lib/schemas/trading-credentials";
import { toolNamed } from "@/server/tools/registry";

/**
 * Upper bounds of free inputs that reach the audit trail, the database or the upstream: each refuses a value past
 * its bound on that field, and takes one at the bound (as the neighbouring fields: account ids 64, symbols 24,
 * decimal strings 32 characters, a screener's page 10,000).
 */
const problemsOf = (schema: z.ZodType, input: unknown): string[] => {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
};

const exercise = {
  account_id: "ACC1",
  client_request_id: "req-1",
  symbol: "AAPL261218C00200000",
  quantity: "1",
  exercise_type: "EXERCISE",
};
const journal = {
  client_request_id: "req-1",
  from_account: "ACC1",
  to_account: "ACC2",
  instrument_type: "EQUITY",
  market: "US",
  symbol: "AAPL",
  quantity: "10",
};
const rule = { action: "movements.cash_journal", currency: "USD", threshold: "10000", approversRequired: 1, approverRoles: ["operations"] };

describe("input upper bounds", () => {
  it("option exercise: an account id of at most 64 characters", () => {
    expect(problemsOf(optionExerciseSchema, { ...exercise, account_id: "A".repeat(64) })).toEqual([]);
    expect(problemsOf(optionExerciseSchema, { ...exercise, account_id: "A".repeat(65) })).toEqual(["account_id"]);
  });

  it("trading credentials: an account id of at most 64 characters, to issue and to revoke", () => {
    expect(problemsOf(issueTradingCredentialSchema, { account_id: "A".repeat(64) })).toEqual([]);
    expect(problemsOf(issueTradingCredentialSchema, { account_id: "A".repeat(100_000) })).toEqual(["account_id"]);
    expect(problemsOf(revokeTradingCredentialSchema, { account_id: "A".repeat(65), app_key: "key" })).toEqual(["account_id"]);
  });

  it("position journal: a symbol of at most 24 characters and a quantity of at most 32", () => {
    expect(problemsOf(positionJournalSchema, { ...journal, symbol: "A".repeat(24), quantity: "1".repeat(32) })).toEqual([]);
    expect(problemsOf(positionJournalSchema, { ...journal, symbol: "A".repeat(25) })).toEqual(["symbol"]);
    expect(problemsOf(positionJournalSchema, { ...journal, quantity: "9".repeat(100_000) })).toEqual(["quantity"]);
  });

  it("approval rule: a threshold of at most 32 characters", () => {
    expect(problemsOf(approvalRuleSchema, { ...rule, threshold: "1".repeat(32) })).toEqual([]);
    expect(problemsOf(approvalRuleSchema, { ...rule, threshold: "9".repeat(100_000) })).toEqual(["threshold"]);
  });

  it("screener tools: a page_index of at most 10,000", () => {
    for (const name of ["get_gainers_losers", "get_most_active"]) {
      const input = toolNamed(name)!.input;
      expect(problemsOf(input, { page_index: 10_000 }).filter((p) => p === "page_index")).toEqual([]);
      expect(problemsOf(input, { page_index: 10_001 }).filter((p) => p === "page_index")).toEqual(["page_index"]);
    }
  });
});
