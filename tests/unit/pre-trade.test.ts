import { describe, expect, it } from "vitest";
import {
  blockingFindings,
  buyingPowerFindings,
  exerciseOutOfMoney,
  overridesSchema,
  priceBandFindings,
  quantityFindings,
} from "@/lib/pre-trade";

const limit = (value: string) => [{ field: "limit_price", name: "limit price", value }];
const AAPL = { symbol: "AAPL", last: "200", currency: "USD" };

describe("pre-trade rules", () => {
  it("the price band: inside it nothing, at its edge nothing, beyond it on either side a finding on the field", () => {
    expect(priceBandFindings(limit("185"), AAPL, 10)).toEqual([]);
    expect(priceBandFindings(limit("220"), AAPL, 10)).toEqual([]);
    expect(priceBandFindings(limit("220.01"), AAPL, 10)).toEqual([
      {
        code: "PRICE_BAND",
        field: "limit_price",
        overridable: true,
        message: "The limit price 220.01 USD is 10 % above the last price 200 USD (the band is 10 %).",
      },
    ]);
    expect(priceBandFindings(limit("150"), AAPL, 10)[0].message).toContain("25 % below");
    expect(priceBandFindings(limit("150"), AAPL, 30)).toEqual([]);
  });

  it("no market price is said, not passed silently; no price on the order is nothing to check", () => {
    expect(priceBandFindings(limit("150"), { ...AAPL, last: undefined }, 10)).toEqual([
      expect.objectContaining({ code: "PRICE_BAND", message: "No market price for AAPL to check the order's prices against." }),
    ]);
    expect(priceBandFindings(limit(""), AAPL, 10)).toEqual([]);
  });

  it("buying power below zero after the order blocks; zero does not", () => {
    expect(buyingPowerFindings("0", "USD")).toEqual([]);
    expect(buyingPowerFindings("-0.01", "USD")).toEqual([expect.objectContaining({ code: "BUYING_POWER", overridable: false })]);
  });

  it("quantity: fractions only where the instrument and the account take them; HK in whole lots or an odd lot below one", () => {
    const us = { symbol: "AAPL", market: "US", orderType: "LIMIT", fractionable: true, fractionalAllowed: true, lotSize: "1" };
    expect(quantityFindings("1.5", us)).toEqual([]);
    expect(quantityFindings("1.5", { ...us, fractionalAllowed: false })[0].message).toBe(
      "The account may not trade fractional shares: whole shares only.",
    );
    expect(quantityFindings("1.5", { ...us, fractionable: false })[0].message).toBe("AAPL does not trade in fractions: whole shares only.");
    const hk = { symbol: "00700", market: "HK", orderType: "LIMIT", fractionable: false, fractionalAllowed: false, lotSize: "100" };
    expect(quantityFindings("200", hk)).toEqual([]);
    expect(quantityFindings("150", hk)[0]).toMatchObject({ code: "QUANTITY", field: "quantity", overridable: false });
    expect(quantityFindings("30", { ...hk, orderType: "ODD_LOT_LIMIT" })).toEqual([]);
    expect(quantityFindings("100", { ...hk, orderType: "ODD_LOT_LIMIT" })[0].message).toContain("fewer than one lot");
  });

  it("policy: only the price band may be overridden, and an override clears only its own finding", () => {
    const findings = [...priceBandFindings(limit("150"), AAPL, 10), ...buyingPowerFindings("-1", "USD")];
    expect(blockingFindings(findings, []).map((f) => f.code)).toEqual(["PRICE_BAND", "BUYING_POWER"]);
    expect(blockingFindings(findings, ["PRICE_BAND"]).map((f) => f.code)).toEqual(["BUYING_POWER"]);
    expect(blockingFindings(findings, ["BUYING_POWER"]).map((f) => f.code)).toEqual(["PRICE_BAND", "BUYING_POWER"]);
    expect(overridesSchema.safeParse(["BUYING_POWER"]).success).toBe(false);
    expect(overridesSchema.safeParse(["PRICE_BAND"]).success).toBe(true);
  });

  it("an exercise out of the money: a call struck above the price, a put below it", () => {
    expect(exerciseOutOfMoney("AAPL261218C00230000", "200")).toBe(
      "This call is out of the money: it buys AAPL at 230.00 while it trades at 200.00.",
    );
    expect(exerciseOutOfMoney("AAPL261218C00230000", "240")).toBeUndefined();
    expect(exerciseOutOfMoney("AAPL261218P00230000", "240")).toContain("This put is out of the money");
    expect(exerciseOutOfMoney("AAPL261218P00230000", "200")).toBeUndefined();
    expect(exerciseOutOfMoney("AAPL261218P00230000", undefined)).toBeUndefined();
  });
});
