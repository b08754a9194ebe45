import type { MovementRow } from "./movement-list";

/** One movement with everything the desk knows: its row, when a detail call last read it, and its timeline. */
export interface MovementFull extends MovementRow {
  lastEventSeq: number;
  detailAt: string | null;
}

/** One status change: from the upstream's stream, a detail call's snapshot, or the desk's own submission. */
export interface MovementTimelineEntry {
  seq: number;
  status: string;
  reason: string | null;
  at: string;
  source: string | null;
  eventType: string | null;
  /** Who the desk recorded as asking for it (desk entries). */
  requestedBy: string | null;
  payload: unknown;
}

export interface MovementDetail {
  movement: MovementFull;
  timeline: MovementTimelineEntry[];
}

/** "Refresh from upstream": the detail call's answer, parsed and raw, and what it did to the desk's records. */
export interface MovementUpstream {
  fetchedAt: string;
  requestId?: string;
  status?: string;
  reason?: string;
  /** same: the records agreed; diverged: a snapshot was stored; stale: an event moved the row meanwhile. */
  applied: "same" | "enriched" | "diverged" | "stale";
  detail: Record<string, unknown>;
  raw: unknown;
}
