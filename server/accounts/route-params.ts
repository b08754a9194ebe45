import "server-only";
import { z } from "zod";

/** The accounts routes' path (and query) parameters: a bad one is a 400, not an upstream call. */
export const accountPathParams = z.object({ accountId: z.string().trim().min(1).max(64) });

export const accountActivitiesParams = accountPathParams.extend({
  /** Opaque upstream cursor; absent on the first page. */
  cursor: z
    .string()
    .max(512)
    .optional()
    .transform((c) => c || undefined),
});
