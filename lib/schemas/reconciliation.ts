import { z } from "zod";
import { listParams, type StateOf } from "@/lib/list-params";

/**
 * End-of-day reconciliation: a run's summary, the breaks it keeps (what the desk's books and the upstream disagree
 * on) and what staff do with them. Shared by the pages, the actions, the route handlers and the run.
 */
export const BREAK_KINDS = ["cash", "position", "movement"] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];
export const BREAK_KIND_LABELS: Record<BreakKind, string> = {
  cash: "Cash balance",
  position: "Position",
  movement: "Movement not final",
};

export const BREAK_STATUSES = ["open", "closed"] as const;
export type BreakStatus = (typeof BREAK_STATUSES)[number];
export const BREAK_STATUS_LABELS: Record<BreakStatus, string> = { open: "Open", closed: "Closed" };

export const RUN_STATUSES = ["queued", "running", "done", "failed"] as const;
export type ReconciliationRunStatus = (typeof RUN_STATUSES)[number];

/** Per currency, over the accounts compared: the master account and the virtual accounts, each side's cash. */
export interface OmnibusLine {
  currency: string;
  masterDesk: string;
  masterUpstream: string;
  virtualDesk: string;
  virtualUpstream: string;
}

export interface RunSummary {
  accounts: number;
  compared: number;
  /** Accounts left out of this run, with why (the upstream refused their balance, their activities could not be read). */
  notCompared: { accountId: string; accountNumber: string | null; reason: string }[];
  omnibus: OmnibusLine[];
  /** Breaks this run saw: found (all), of which new (opened by it); open counts every open break after it. */
  found: number;
  opened: number;
  open: number;
}

export interface ReconciliationRun {
  id: number;
  trigger: "schedule" | "request";
  status: ReconciliationRunStatus;
  requestedBy: string | null;
  requestedAt: string;
  finishedAt: string | null;
  total: number | null;
  done: number;
  summary: RunSummary | null;
  lastError: string | null;
}

export interface BreakComment {
  id: string;
  author: string;
  body: string;
  at: string;
}

export interface BreakRow {
  id: string;
  kind: BreakKind;
  accountId: string | null;
  accountNumber: string | null;
  currency: string | null;
  symbol: string | null;
  deskValue: string | null;
  upstreamValue: string | null;
  difference: string | null;
  summary: string;
  evidence: Record<string, unknown>;
  status: BreakStatus;
  firstRunId: number;
  lastRunId: number;
  openedAt: string;
  assignedTo: string | null;
  closedBy: string | null;
  closedAt: string | null;
  resolution: string | null;
}

export interface BreakDetail extends BreakRow {
  comments: BreakComment[];
}

export const breakFilterSchema = z.object({
  status: z.enum(BREAK_STATUSES).optional().catch(undefined),
  kind: z.enum(BREAK_KINDS).optional().catch(undefined),
  assignee: z.string().trim().max(200).optional().catch(undefined),
});
export type BreakFilter = z.infer<typeof breakFilterSchema>;

/** The breaks list's URL state: newest first. */
export const breakListParams = listParams({ filters: breakFilterSchema.shape, sizes: [25, 50, 100], defaultSize: 50 });
export type BreakListParams = StateOf<typeof breakListParams>;

const breakId = z.string().regex(/^\d{1,18}$/, "Unknown break");

export const breakAssignSchema = z.object({
  breakId,
  /** A staff member's email; empty: nobody. */
  assignee: z.string().trim().toLowerCase().max(320),
});
export const breakCommentSchema = z.object({
  breakId,
  body: z.string().trim().min(3, "Write at least 3 characters").max(2000, "At most 2,000 characters"),
});
export const breakCloseSchema = z.object({
  breakId,
  resolution: z.string().trim().min(3, "Say how it was resolved (at least 3 characters)").max(2000, "At most 2,000 characters"),
});
