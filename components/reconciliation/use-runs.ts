"use client";
import { useRunPages } from "@/components/ui/use-run-pages";
import type { ReconciliationRun } from "@/lib/schemas/reconciliation";
import type { RunsPage } from "@/lib/schemas/runs";
import { RUNS_KEY } from "./labels";

/** The reconciliation runs, newest first, a page at a time, live: one query the runs panel and the breaks table share. */
export function useRuns(initial: RunsPage<ReconciliationRun>) {
  return useRunPages(RUNS_KEY, "/api/reconciliation/runs", initial);
}

/**
 * What an empty, unfiltered breaks table may say: that the books and the upstream agree only once a run has compared
 * them and none is comparing them now.
 */
export function noBreaksText(runs: ReconciliationRun[]): string {
  const open = runs.find((r) => r.status === "queued" || r.status === "running");
  if (open) {
    const progress = open.total ? ` (${open.done} of ${open.total} accounts)` : "";
    return `No breaks so far: run ${open.id} is still comparing${progress}.`;
  }
  const done = runs.find((r) => r.status === "done");
  return done ? `No breaks: the books and the upstream agreed in run ${done.id}.` : "No breaks: no run has compared the books yet.";
}
