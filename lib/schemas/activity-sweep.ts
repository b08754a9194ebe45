import { z } from "zod";

/** "Sweep now", for every account or, with an account, that account's history read again from the start. */
export const activitySweepSchema = z.object({
  account: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "An account number or id.")
    .optional(),
});
