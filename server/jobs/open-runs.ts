import "server-only";

/**
 * The run of a job that works a queue of runs kept as rows (the statements, the end-of-day reconciliation): the oldest
 * open run is started and worked, then the next, until none is left (`again: false`) or the slice ends (`again: true`:
 * the job is sent once more and the run it was working resumes). The runs' notice goes out when a run starts and when
 * one fails; a failed run is recorded, then the loop goes on to the next run or throws (the job's retry resumes).
 */
export async function workOpenRuns<R>(
  signal: AbortSignal,
  o: {
    /** Starts the oldest open run; undefined when none is left. */
    start: () => Promise<R | undefined>;
    /** "stopped": the slice ended within the run. */
    work: (run: R) => Promise<"done" | "stopped">;
    /** Records a run that threw as failed. */
    fail: (run: R, error: unknown) => Promise<void>;
    notify: () => Promise<void>;
    afterFailure: "next" | "throw";
  },
): Promise<{ again: boolean; runs: number }> {
  let runs = 0;
  for (;;) {
    if (signal.aborted) return { again: true, runs };
    const run = await o.start();
    if (!run) return { again: false, runs };
    await o.notify();
    try {
      if ((await o.work(run)) === "stopped") return { again: true, runs };
      runs += 1;
    } catch (error) {
      await o.fail(run, error);
      await o.notify();
      if (o.afterFailure === "throw") throw error;
    }
  }
}
