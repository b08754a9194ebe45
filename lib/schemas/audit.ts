import { z } from "zod";
import { listParams, type StateOf } from "@/lib/list-params";

export const AUDIT_OUTCOMES = ["success", "failure", "denied", "held"] as const;

/** The audit trail's filters, from the URL: the page, and the CSV export of everything they match. */
export const auditFilterSchema = z.object({
  action: z.string().trim().max(100).optional().catch(undefined),
  actor: z.string().trim().max(254).optional().catch(undefined),
  outcome: z.enum(AUDIT_OUTCOMES).optional().catch(undefined),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** Sort keys the trail's list function orders by in SQL (keyset paging in the same order). */
export const AUDIT_SORTABLE = ["seq", "action", "actor"] as const;
export type AuditSort = (typeof AUDIT_SORTABLE)[number];

/** The Audit page's URL state. Newest first unless asked otherwise; bad values are dropped. */
export const auditListParams = listParams({
  filters: auditFilterSchema.shape,
  sortable: AUDIT_SORTABLE,
  defaultSort: { id: "seq", desc: true },
  sizes: [10, 25, 50, 100],
  defaultSize: 50,
});
export type AuditListParams = StateOf<typeof auditListParams>;

/** An audit entry as the browser gets it (plain JSON). */
export interface AuditListRow {
  seq: number;
  at: string;
  actorEmail: string | null;
  actorRole: string | null;
  action: string;
  target: string | null;
  /** The account number of an account (or an order's account) target, when the desk has seen that account. */
  targetAccountNumber?: string;
  outcome: (typeof AUDIT_OUTCOMES)[number];
  errorCode: string | null;
  upstreamRequestId: string | null;
  idempotencyKey: string | null;
  clientIp: string | null;
  userAgent: string | null;
  input: unknown;
}
