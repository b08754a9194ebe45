import { z } from "zod";

/** The jobs page's two acts: run a queue's job now, retry a failed job. */
export const runJobSchema = z.object({ queue: z.string().regex(/^[a-z][a-z0-9-]{0,49}$/, "Choose a job.") });

export const retryJobSchema = z.object({
  queue: z.string().regex(/^[a-z][a-z0-9-]{0,49}$/, "Choose a job."),
  id: z.uuid("Choose a job."),
});
