import { z } from "zod";
import { approveSchema, rejectSchema } from "./approvals";

/**
 * The approvals queue around the desk: bulk decisions in the inbox, the "Pending approval" marker on the pages of
 * what a held request touches, and the maker's notice of decided requests. Shared by the actions, the GET routes
 * and the components.
 */

const approvalId = approveSchema.shape.id;

/** At most one inbox page (its largest size), each request once. */
export const BULK_DECISION_MAX = 100;
const ids = z
  .array(approvalId)
  .min(1, "Choose at least one request")
  .max(BULK_DECISION_MAX, `Choose at most ${BULK_DECISION_MAX} requests`)
  .refine((list) => new Set(list).size === list.length, "Each request once");

/** Reject the chosen requests with one reason for all (the same rule as one rejection's reason). */
export const bulkRejectSchema = z.object({
  decision: z.literal("reject"),
  ids,
  reason: rejectSchema.shape.reason,
});
/** The inbox's reject form: the reason alone (the selection is the ids). */
export const bulkRejectReasonSchema = bulkRejectSchema.pick({ reason: true });

export const bulkDecisionSchema = z.discriminatedUnion("decision", [z.object({ decision: z.literal("approve"), ids }), bulkRejectSchema]);

/** What became of one request of a bulk decision, in words for the page. */
export interface BulkDecisionResult {
  id: string;
  /** approved (sent, or waiting for more approvals), rejected, failed (approved; the send failed), refused (nothing done). */
  outcome: "approved" | "rejected" | "failed" | "refused";
  message: string;
}

/** An id as the desk stores it: no control characters (PostgreSQL refuses NUL in text). */
const storedId = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\u0000-\u001f\u007f]+$/, "Not an id");
/** Where the account's or movement's page asks which held requests touch it. */
export const pendingMarksQuerySchema = z.union([z.object({ account: storedId(64) }), z.object({ clientRequestId: storedId(128) })]);
export type PendingMarksQuery = z.infer<typeof pendingMarksQuerySchema>;

/** A held request shown on the page of what it touches. */
export interface PendingMark {
  id: string;
  summary: string;
  ruleAction: string;
  makerEmail: string;
  createdAt: string;
}

export const markDecisionsSeenSchema = z.object({ ids: z.array(approvalId).min(1).max(50) });
