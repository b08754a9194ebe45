import { z } from "zod";
import { isDeskDate } from "@/lib/format";
import { compareDecimal, DECIMAL_PATTERN } from "@/lib/money";
import { orderRef, reasonShape, requireReasonText } from "./order-reason";

/** A price or quantity box: empty means "leave as it is". */
const positive = z
  .string()
  .trim()
  .refine((v) => v === "" || (DECIMAL_PATTERN.test(v) && compareDecimal(v, "0") > 0), "A positive number such as 12.50")
  .transform((v) => v || undefined)
  .optional();

export const REPLACE_TIME_IN_FORCE = ["DAY", "GTC", "GTD"] as const;

/**
 * Replace an order: the new quantity, limit or stop price, time in force and expiry (as the order type allows:
 * the form offers the prices the type has), with a reason. The form and the server action share this schema.
 */
export const replaceOrderSchema = z
  .object({
    orderId: orderRef,
    quantity: positive,
    limitPrice: positive,
    stopPrice: positive,
    timeInForce: z
      .enum(REPLACE_TIME_IN_FORCE)
      .or(z.literal(""))
      .transform((v) => v || undefined)
      .optional(),
    expireDate: z
      .string()
      .trim()
      .refine((v) => v === "" || isDeskDate(v), "A date such as 2026-12-31")
      .transform((v) => v || undefined)
      .optional(),
    ...reasonShape,
  })
  .superRefine((v, ctx) => {
    requireReasonText(v, ctx);
    if (v.timeInForce === "GTD" && !v.expireDate)
      ctx.addIssue({ code: "custom", path: ["expireDate"], message: "GTD needs an expiry date" });
    if (v.timeInForce !== "GTD" && v.expireDate)
      ctx.addIssue({ code: "custom", path: ["expireDate"], message: "Only GTD orders have an expiry date" });
  });
export type ReplaceOrderValues = z.input<typeof replaceOrderSchema>;
export type ReplaceOrderInput = z.output<typeof replaceOrderSchema>;

/** Which prices an order type has (the others are not offered on replace). */
export function pricesOf(orderType: string | null | undefined): { limit: boolean; stop: boolean } {
  const t = orderType ?? "";
  return {
    limit: [
      "LIMIT",
      "STOP_LOSS_LIMIT",
      "ENHANCED_LIMIT",
      "AT_AUCTION_LIMIT",
      "TOUCH_LMT",
      "ODD_LOT_LIMIT",
      "TRAILING_STOP_LOSS_LIMIT",
    ].includes(t),
    stop: ["STOP_LOSS", "STOP_LOSS_LIMIT", "TOUCH_MKT", "TOUCH_LMT"].includes(t),
  };
}
