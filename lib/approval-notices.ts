/**
 * The maker's notice of their decided requests (approved, rejected, expired): its rows and their words. Plain types
 * and text, no zod: the header of every page carries it.
 */

/** A decided request its maker has not seen yet. */
export interface DecisionNotice {
  id: string;
  summary: string;
  status: "executed" | "failed" | "rejected" | "expired";
  decidedAt: string;
  decidedBy: string | null;
  reason: string | null;
  error: string | null;
}

/** The maker's unseen decisions: the newest few and how many there are. */
export interface DecisionNotices {
  count: number;
  rows: DecisionNotice[];
}

/** One decided request in words for its maker. */
export function decisionNoticeText(n: DecisionNotice): string {
  switch (n.status) {
    case "executed":
      return `Approved${n.decidedBy ? ` by ${n.decidedBy}` : ""} and sent`;
    case "failed":
      return `Approved${n.decidedBy ? ` by ${n.decidedBy}` : ""}, but sending failed: ${n.error ?? "see the request"}`;
    case "rejected":
      return `Rejected${n.decidedBy ? ` by ${n.decidedBy}` : ""}${n.reason ? `: ${n.reason}` : ""}`;
    case "expired":
      return "Expired: nobody decided it in time";
  }
}
