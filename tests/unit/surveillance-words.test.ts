import { describe, expect, it } from "vitest";
import { ruleParamsText } from "@/lib/schemas/surveillance";

/** lib/schemas/surveillance.ts: a rule's parameters as the rules page lists them. */
describe("ruleParamsText", () => {
  it("an amount exactly as stored, grouped, in the rule's currency", () => {
    expect(ruleParamsText("large_funding", { amount: "12345678901234567.89", currency: "HKD" })).toBe(
      "Above 12,345,678,901,234,567.89 HKD",
    );
    expect(ruleParamsText("large_funding", { amount: 50000, currency: "USD" })).toBe("Above 50,000.00 USD");
  });

  it("the smallest withdrawal of a rule that has no currency is not said to be in USD", () => {
    expect(ruleParamsText("withdrawal_after_deposit", { days: 7, tolerancePct: 10, minAmount: "10000" })).toBe(
      "Within 7 days of the deposit, amounts within 10 % of each other, withdrawals from 10,000.00 in any currency",
    );
  });
});
