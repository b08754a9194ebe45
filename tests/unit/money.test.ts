import { describe, expect, it } from "vitest";
import {
  formatPrice,
  addDecimal,
  amountIn,
  amountProblem,
  compareDecimal,
  CURRENCIES,
  CURRENCY_DECIMALS,
  currencyDecimals,
  decimalIn,
  decimalOut,
  decimalSign,
  formatMoney,
  formatQuantity,
  moneyIn,
  mulDecimal,
  positiveDecimalIn,
  roundMoney,
  sizeWithin,
  subDecimal,
} from "@/lib/money";

describe("currencies", () => {
  it("lists the upstream's currencies with their decimals", () => {
    expect(CURRENCIES).toEqual(["USD", "HKD", "CNH"]);
    for (const c of CURRENCIES) expect(currencyDecimals(c)).toBe(CURRENCY_DECIMALS[c]);
    expect(currencyDecimals("USD")).toBe(2);
    expect(currencyDecimals("XYZ")).toBeUndefined();
  });
});

describe("amount input schemas", () => {
  it("accepts decimal strings within the currency's decimals", () => {
    expect(amountIn("USD").parse("12.50")).toBe("12.50");
    expect(amountIn("HKD").parse(" 1000 ")).toBe("1000");
    expect(moneyIn().parse({ amount: "0.01", currency: "CNH" })).toEqual({ amount: "0.01", currency: "CNH" });
  });

  it("rejects floats given as numbers: an amount is never a JS number", () => {
    expect(amountIn("USD").safeParse(12.5).success).toBe(false);
    expect(decimalIn.safeParse(0.1).success).toBe(false);
    expect(moneyIn().safeParse({ amount: 12.5, currency: "USD" }).success).toBe(false);
  });

  it("rejects more decimals than the currency has, naming the currency", () => {
    const r = amountIn("USD").safeParse("1.005");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe("At most 2 decimals in USD");
    const m = moneyIn().safeParse({ amount: "3.141", currency: "HKD" });
    expect(m.error?.issues[0]).toMatchObject({ path: ["amount"], message: "At most 2 decimals in HKD" });
  });

  it("rejects what is not a decimal: exponents, grouping, words, empty", () => {
    for (const v of ["1e3", "1,000", "ten", "", ".5", "5.", "0x10"]) expect(amountIn("USD").safeParse(v).success, v).toBe(false);
  });

  it("applies the sign rule: positive by default, non-negative or any when asked", () => {
    expect(amountProblem("-1.00", "USD")).toBe("Enter an amount greater than zero");
    expect(amountProblem("0", "USD")).toBe("Enter an amount greater than zero");
    expect(amountProblem("0", "USD", "non-negative")).toBeUndefined();
    expect(amountProblem("-0.01", "USD", "non-negative")).toBe("The amount cannot be negative");
    expect(amountProblem("-0.01", "USD", "any")).toBeUndefined();
    expect(amountIn("USD", "non-negative").safeParse("-5").success).toBe(false);
  });

  it("rejects an unknown currency", () => {
    expect(amountProblem("1", "XYZ")).toBe("XYZ is not a currency this desk knows");
    expect(moneyIn().safeParse({ amount: "1", currency: "XYZ" }).success).toBe(false);
  });

  it("keeps the wire schemas: strict decimal strings in, numbers converted once out", () => {
    expect(decimalIn.parse("-12.5")).toBe("-12.5");
    expect(positiveDecimalIn.safeParse("0").success).toBe(false);
    expect(decimalOut.parse(0.1)).toBe("0.1");
    expect(decimalOut.parse("123.4500")).toBe("123.4500");
  });
});

describe("arithmetic through decimal.js", () => {
  it("is exact where floats are not", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(addDecimal("0.1", "0.2")).toBe("0.3");
    expect(subDecimal("0.3", "0.1")).toBe("0.2");
    expect(mulDecimal("1.1", "1.1")).toBe("1.21");
    expect(addDecimal()).toBe("0");
  });

  it("keeps large amounts to the last digit", () => {
    expect(addDecimal("12345678901234567890.12", "0.01")).toBe("12345678901234567890.13");
    expect(mulDecimal("99999999999999.99", "3")).toBe("299999999999999.97");
  });

  it("compares, signs and rounds", () => {
    expect(compareDecimal("10.00", "9.99")).toBe(1);
    expect(compareDecimal("1.0", "1")).toBe(0);
    expect(decimalSign("-0.00")).toBe(0);
    expect(decimalSign("-0.01")).toBe(-1);
    expect(roundMoney("2.675", "USD")).toBe("2.68"); // a float would give 2.67
    expect(roundMoney("5", "HKD")).toBe("5.00");
  });

  it("bounds an amount's size as decimals, beyond a float's digits, and keeps a malformed amount out", () => {
    // As floats both sides are 123456789012.34: the floor would let the row in.
    expect(Number("123456789012.34000001")).toBe(Number("123456789012.34"));
    expect(sizeWithin("-123456789012.34", "123456789012.34000001")).toBe(false);
    expect(sizeWithin("-123456789012.34", "123456789012.34")).toBe(true);
    expect(sizeWithin("123456789012.34", undefined, "123456789012.33999999")).toBe(false);
    expect(sizeWithin("0.5", "0.5", "0.5")).toBe(true);
    expect(sizeWithin("n/a", "0")).toBe(false);
    expect(sizeWithin("n/a")).toBe(true);
  });
});

describe("formatting", () => {
  it("groups, fixes the currency's decimals and keeps the sign", () => {
    expect(formatMoney("1234567.891", "USD")).toBe("1,234,567.89 USD");
    expect(formatMoney("-0.5")).toBe("-0.50");
    expect(formatMoney("-0.001")).toBe("0.00");
    expect(formatMoney(undefined)).toBe("—");
    expect(formatMoney("n/a")).toBe("n/a");
  });

  it("shows quantities with the decimals they have, at most six", () => {
    expect(formatQuantity("1500")).toBe("1,500");
    expect(formatQuantity("0.12500000")).toBe("0.125");
    expect(formatQuantity("1.123456789")).toBe("1.123457");
    expect(formatQuantity(undefined)).toBe("—");
  });
});

describe("formatPrice", () => {
  it("shows a price with the decimals it carries, never fewer than the currency's", () => {
    // The ticket takes four decimals: 0.1234 shown at two would read 0.12, and a change to 0.1201 would look like none.
    expect(formatPrice("0.1234", "USD")).toBe("0.1234 USD");
    expect(formatPrice("0.1201", "USD")).toBe("0.1201 USD");
    expect(formatPrice("12.3450", "USD")).toBe("12.345 USD");
    expect(formatPrice("22.5", "USD")).toBe("22.50 USD");
    expect(formatPrice("1250", "HKD")).toBe("1,250.00 HKD");
    expect(formatPrice(null, "USD")).toBe("—");
  });
});
