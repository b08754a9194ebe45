import { describe, expect, it } from "vitest";
import { z } from "zod";
import { enumLabel, isKnownEnum, tolerantEnum } from "@/server/broker/schemas/common";
import { ORDER_STATUSES, order, orderGroup } from "@/server/broker/schemas/orders";
import { virtualAccount } from "@/server/broker/schemas/accounts";
import { fxRequest } from "@/server/broker/schemas/funding";

describe("tolerant enums", () => {
  it("keeps an unknown value as the raw string instead of failing", () => {
    const s = tolerantEnum(["A", "B"] as const);
    expect(s.parse("A")).toBe("A");
    expect(s.parse("BRAND_NEW")).toBe("BRAND_NEW");
    expect(() => s.parse(3)).toThrow(); // still a string
  });

  it("an order with a status the app has never seen parses, and shows as unknown (RAW)", () => {
    const o = order.parse({ client_order_id: "c1", status: "WORKING", order_type: "ICEBERG", side: "BUY", total_quantity: "5" });
    expect(o.status).toBe("WORKING");
    expect(o.order_type).toBe("ICEBERG");
    expect(isKnownEnum(ORDER_STATUSES, o.status)).toBe(false);
    expect(enumLabel(ORDER_STATUSES, o.status)).toBe("unknown (WORKING)");
    expect(enumLabel(ORDER_STATUSES, "FILLED")).toBe("FILLED");
  });

  it("unknown values inside arrays and nested objects survive too", () => {
    const a = virtualAccount.parse({
      account_id: "A",
      account_status: "DORMANT",
      trading_permissions: ["US_STOCK_NORMAL", "JP_STOCK_NORMAL"],
      option_level: "LV9",
    });
    expect(a.trading_permissions).toEqual(["US_STOCK_NORMAL", "JP_STOCK_NORMAL"]);
    expect(a.account_status).toBe("DORMANT");
    const g = orderGroup.parse({ client_order_id: "c", combo_type: "OTOCOCO", orders: [] });
    expect(g.combo_type).toBe("OTOCOCO");
    expect(fxRequest.parse({ client_request_id: "r", fx_id: "f", status: "PROCESSING" }).status).toBe("PROCESSING");
  });

  it("decimal strings stay strings, deprecated timestamps only fill gaps", () => {
    const o = order.parse({ client_order_id: "c", status: "FILLED", filled_price: "0.10000000", place_time: "1767225600000" });
    expect(o.filled_price).toBe("0.10000000");
    expect(o.placed_at).toBe("2026-01-01T00:00:00.000Z"); // from place_time, as place_time_at is absent
    const p = order.parse({ client_order_id: "c", status: "FILLED", place_time: "1", place_time_at: "2026-02-03T04:05:06Z" });
    expect(p.placed_at).toBe("2026-02-03T04:05:06.000Z");
  });

  it("request schemas stay strict: floats are refused for money", () => {
    const res = z.object({ amount: z.string().regex(/^-?\d+(\.\d+)?$/) }).safeParse({ amount: 1.5 });
    expect(res.success).toBe(false);
  });
});
