import { z } from "zod";

/** An account whose open orders staff want read from the upstream now: its number or id. */
export const orderCheckSchema = z.object({
  account: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "An account number or id."),
  /** Only read the state (the line's polls while its check is on the way), without asking again. */
  peek: z.literal("1").optional(),
});

/** When an account's open orders were last read from the upstream (the orders sweep), and whether a check is on its way. */
export interface OrderCheck {
  accountId: string;
  accountNumber?: string | null;
  checkedAt: string | null;
  /** A check was asked for and has not been tried yet. */
  pending: boolean;
  /** Open at the upstream at the last check. */
  openOrders: number | null;
  lastError: string | null;
}
