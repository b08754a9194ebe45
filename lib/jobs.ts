/** The background jobs page's data (server/jobs/admin.ts → GET /api/jobs → components/jobs). Plain types. */

export const JOB_STATES = ["created", "retry", "active", "completed", "failed", "cancelled"] as const;
export type JobStateName = (typeof JOB_STATES)[number];
export const JOB_STATE_LABELS: Record<JobStateName, string> = {
  created: "Waiting",
  retry: "Retry",
  active: "Running",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

export interface QueueView {
  name: string;
  label: string;
  /** A cron line (UTC), when it runs on a schedule. */
  schedule: string | null;
  policy: string;
  retryLimit: number;
  expireInSeconds: number;
  /** May be run now from the page. */
  runOnRequest: boolean;
  counts: Record<"created" | "retry" | "active" | "completed" | "failed", number>;
}

export interface JobView {
  id: string;
  queue: string;
  label: string;
  state: JobStateName;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  durationMs: number | null;
  retryCount: number;
  retryLimit: number;
  requestedBy: string | null;
  /** A failed run's error. */
  error: string | null;
}

export interface JobsOverview {
  queues: QueueView[];
  jobs: JobView[];
  checkedAt: string;
}
