import { z } from "zod";

/** The stream-health page's two requests; the reason goes into the audit entry. */
export const streamRequestSchema = z.object({
  reason: z.string().trim().max(200, "Keep the reason under 200 characters.").optional(),
});
