import { describe, expect, it } from "vitest";
import { BrokerError } from "@/server/broker/errors";
import type { AppError } from "@/lib/errors";
import { orderActionError, orderFieldOf } from "@/server/orders/upstream-errors";

/** Upstream order rules (417) on the ticket's fields: by code, and by the wire path ILLEGAL_PARAMETER names. */
const roles = ["main", "profit", "loss"] as const;
const refused = (errorCode: string, message: string) =>
  (orderActionError(new BrokerError({ status: 417, errorCode, message, requestId: "req-1" }), roles) as AppError).fieldErrors;

describe("order errors onto ticket fields", () => {
  it("a wire path of the main order or a combo member is that member's field", () => {
    expect(orderFieldOf("new_orders[0].limit_price", roles)).toBe("limit_price");
    expect(orderFieldOf("new_orders[1].limit_price", roles)).toBe("profit_limit_price");
    expect(orderFieldOf("new_orders[2].stop_price", roles)).toBe("loss_stop_price");
    expect(orderFieldOf("new_orders[0].support_trading_session", roles)).toBe("trading_session");
    expect(orderFieldOf("new_orders[0].sender_sub_id", roles)).toBeUndefined();
  });

  it("codes name their field; ILLEGAL_PARAMETER its path", () => {
    expect(refused("INVALID_LOT_SIZE", "quantity must be a multiple of 100")).toEqual({ quantity: "quantity must be a multiple of 100" });
    expect(refused("LOCATE_REQUIRED", "only 10 available")).toEqual({ side: "only 10 available" });
    expect(refused("OPTION_LEVEL_TOO_LOW", "VERTICAL needs LV3")).toEqual({ legs: "VERTICAL needs LV3" });
    expect(refused("ILLEGAL_PARAMETER", "new_orders[2].stop_price is required for STOP_LOSS.")).toEqual({
      loss_stop_price: "The broker refused this: stop_price is required for STOP_LOSS.",
    });
    expect(refused("INSUFFICIENT_BUYING_POWER", "short by 10 USD")).toEqual({ quantity: "short by 10 USD" });
  });
});
