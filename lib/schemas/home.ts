import type { StreamState } from "@/lib/stream-health";

/** What the home page shows: the server reads it (server/home/today.ts), the page renders it. */
export interface HomeCount {
  id: string;
  label: string;
  hint: string;
  value: number | null;
  /** Absent when the page is not in this role's navigation (yet): the count is shown without a link. */
  href?: string;
}

export interface HomeStream {
  state: StreamState;
  label: string;
  since?: string;
  href?: string;
}

export interface RecentEntry {
  seq: number;
  at: string;
  action: string;
  target: string | null;
  /** The number of the account the target names, when the desk knows it. */
  targetAccountNumber?: string;
  /** What the target is called, where the desk has a name for it (a held request's summary, a colleague's email). */
  targetName?: string;
  outcome: string;
}

export interface HomeToday {
  counts: HomeCount[];
  stream?: HomeStream;
  recent: RecentEntry[];
}
