import { z } from "zod";

/**
 * A page of a run history (the statements' zips, the reconciliations, the scheduled reports), newest first: its runs
 * and the `before` of the next, older page (null at the oldest run).
 */
export interface RunsPage<R> {
  runs: R[];
  next: number | null;
}

/** What a page of a run history asks for: the runs older than `before` (absent: the newest), at most `limit`. */
export interface RunsQuery {
  before?: number;
  limit?: number;
}

/** A run history route's parameters: `before`, a run's id, for the runs older than it; absent, the newest. */
export const runsPageParamsSchema = z.object({ before: z.coerce.number().int().positive().optional() });

/** Rows read one past `limit`, newest first, as a page: the first `limit`, and where the next page starts. */
export function runsPage<R extends { id: number }>(rows: R[], limit: number): RunsPage<R> {
  const runs = rows.slice(0, limit);
  return { runs, next: rows.length > limit ? runs[runs.length - 1].id : null };
}
