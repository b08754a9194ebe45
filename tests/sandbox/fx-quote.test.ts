import { describe, expect, it } from "vitest";
import { convertAt } from "@/lib/money";
import { convert, quote } from "@/server/sandbox/fx";

/** The sandbox's quote window (SANDBOX_FX_QUOTE_SECONDS) and the desk's conversion agreeing with the sandbox's. */
describe("sandbox FX quotes", () => {
  it("live a minute by default, aligned on the minute", () => {
    const q = quote("USD", "HKD", new Date("2026-11-24T04:31:42.500Z"));
    expect(q).toMatchObject({
      fx_rate: "7.792200",
      rate_effective_time: "2026-11-24T04:31:00.000Z",
      rate_expire_time: "2026-11-24T04:32:00.000Z",
    });
  });

  it("live as long as configured, in windows aligned on the epoch", () => {
    const q = quote("USD", "HKD", new Date("2026-11-24T04:31:42.500Z"), 8);
    expect(q).toMatchObject({ rate_effective_time: "2026-11-24T04:31:36.000Z", rate_expire_time: "2026-11-24T04:31:44.000Z" });
    const next = quote("USD", "HKD", new Date("2026-11-24T04:31:44.000Z"), 8);
    expect(next.rate_effective_time).toBe(q.rate_expire_time);
  });

  it("the desk's to_amount (rounded down) is the amount the sandbox converts to", () => {
    for (const [amount, from, to] of [
      ["100.00", "USD", "HKD"],
      ["1234.57", "HKD", "CNH"],
      ["0.01", "CNH", "USD"],
      ["999999.99", "USD", "CNH"],
    ] as const) {
      expect(convertAt(amount, quote(from, to, new Date()).fx_rate, to)).toBe(convert(amount, from, to).toFixed(2));
    }
  });
});
