import { z } from "zod";

const token = /^[A-Za-z0-9_-]{1,64}$/;

/** A support agent's lookup of one order: the account the customer names and the order's id or client order id. */
export const orderLookupSchema = z.object({
  account: z.string().trim().min(1, "The customer's account number.").regex(token, "An account number: letters, digits, - and _."),
  id: z
    .string()
    .trim()
    .min(1, "The order id or the client order id.")
    .regex(token, "An order id or client order id: letters, digits, - and _."),
});
export type OrderLookupInput = z.infer<typeof orderLookupSchema>;

/** Where the order was found: already in the desk's books, or read from the upstream into them now. */
export interface OrderLookup {
  /** The desk's id of the order (its page is /orders/{id}). */
  id: string;
  accountId: string;
  accountNumber: string | null;
  source: "books" | "upstream";
}
