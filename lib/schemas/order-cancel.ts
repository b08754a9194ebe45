import { z } from "zod";
import { orderRef, reasonShape, requireReasonText } from "./order-reason";

/** Cancel an order with a reason: the confirmation form and the server action parse with this one schema. */
export const cancelOrderSchema = z.object({ orderId: orderRef, ...reasonShape }).superRefine(requireReasonText);
export type CancelOrderValues = z.input<typeof cancelOrderSchema>;
export type CancelOrderInput = z.output<typeof cancelOrderSchema>;
