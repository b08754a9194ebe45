import { z } from "zod";

/** Why staff replaced or cancelled a customer's order: a code, and text when the code is "other" (audited). */
export const ORDER_CHANGE_REASONS = ["CUSTOMER_REQUEST", "WRONG_PRICE_OR_QUANTITY", "DUPLICATE", "RISK", "OTHER"] as const;
export type OrderChangeReason = (typeof ORDER_CHANGE_REASONS)[number];
export const ORDER_CHANGE_REASON_LABELS: Record<OrderChangeReason, string> = {
  CUSTOMER_REQUEST: "Customer request",
  WRONG_PRICE_OR_QUANTITY: "Wrong price or quantity",
  DUPLICATE: "Duplicate order",
  RISK: "Risk",
  OTHER: "Other (say why)",
};

export const reasonShape = {
  reasonCode: z.enum(ORDER_CHANGE_REASONS, { message: "Choose a reason" }),
  reasonText: z.string().trim().max(500, "At most 500 characters").optional(),
};

/** "Other" needs its text. */
export function requireReasonText(v: { reasonCode: OrderChangeReason; reasonText?: string }, ctx: z.RefinementCtx) {
  if (v.reasonCode === "OTHER" && (v.reasonText ?? "").length < 3) {
    ctx.addIssue({ code: "custom", path: ["reasonText"], message: "Say why (at least 3 characters)" });
  }
}

/** The desk's id of an order (brokerdesk.orders.id). */
export const orderRef = z.string().regex(/^\d{1,18}$/, "Not an order of the desk");
