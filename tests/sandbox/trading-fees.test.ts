import { describe, expect, it } from "vitest";
import { Decimal } from "@/server/sandbox/money";
import { addFees, charges, discountOf } from "@/server/sandbox/trading/fees";

/** Commission and fee schedules (docs/sandbox-api.md "Commission, fees"). */
const d = (v: string) => new Decimal(v);
type Trade = Parameters<typeof charges>[0];
/** The charges on a stock trade of `quantity` shares worth `value`, at list price (no commission group). */
const stockCharges = (market: Trade["market"], side: Trade["side"], quantity: string, value: string) =>
  charges({ market, instrumentType: "EQUITY", side, quantity: d(quantity), value: d(value) }, null);

describe("commission and fees", () => {
  it("US stock: 0.0049/share with a 0.99 minimum and a 1 % cap; sells add SEC fee and FINRA TAF", () => {
    expect(stockCharges("US", "BUY", "10", "1000")).toMatchObject({
      receivableCommission: d("0.99"),
      fees: [],
    });
    expect(stockCharges("US", "BUY", "1000", "100000").receivableCommission.toFixed(2)).toBe("4.90");
    expect(stockCharges("US", "BUY", "1", "0.50").receivableCommission.toFixed(2)).toBe("0.01");
    const sell = stockCharges("US", "SELL", "100", "10000");
    expect(sell.fees.map((f) => [f.type, f.actual_value])).toEqual([
      ["SEC_FEE", "0.28"],
      ["FINRA_TAF", "0.02"],
    ]);
  });

  it("actual commission follows the commission group discount; receivable stays the list price", () => {
    expect(discountOf("COMMISSION_GROUP_1").toString()).toBe("1");
    expect(discountOf("COMMISSION_GROUP_3").toString()).toBe("0.8");
    const c = charges({ market: "US", instrumentType: "OPTION", side: "BUY", quantity: d("10"), value: d("5000") }, "COMMISSION_GROUP_5");
    expect([c.receivableCommission.toFixed(2), c.commission.toFixed(2)]).toEqual(["6.50", "3.90"]);
    expect(c.fees).toEqual([{ type: "OCC_CLEARING_FEE", actual_value: "0.20", receivable_value: "0.20" }]);
  });

  it("HK and CN schedules; fee lines add up by type", () => {
    const hk = stockCharges("HK", "BUY", "100", "40000.50");
    expect(hk.receivableCommission.toFixed(2)).toBe("12.00");
    expect(hk.fees.find((f) => f.type === "STAMP_DUTY")!.actual_value).toBe("41.00");
    const cn = stockCharges("CN", "SELL", "100", "5000");
    expect(cn.receivableCommission.toFixed(2)).toBe("5.00");
    expect(cn.fees.map((f) => f.type)).toEqual(["HANDLING_FEE", "STAMP_DUTY"]);
    expect(addFees(cn.fees, cn.fees).find((f) => f.type === "STAMP_DUTY")!.actual_value).toBe("5.00");
  });
});
