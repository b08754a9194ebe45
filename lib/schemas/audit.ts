import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { filterValue, listParams, type StateOf } from "@/lib/list-params";

export const AUDIT_OUTCOMES = ["success", "failure", "denied", "held"] as const;

const day = filterValue.day;
const text = filterValue.text;
const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(254)
  .regex(/^[^\u0000]*$/)
  .optional()
  .catch(undefined);

/**
 * The audit trail's filters, from the URL: the page, and the CSV export of everything they match. Each is served by
 * an index (migrations 0001, 0014, 0031):
 * - `action`: exact, or a prefix when it ends with `.` or `*` (`movements.` = every movement action);
 * - `actor`: the actor's email, exact when it is a whole one (`name@host`), else the email's beginning (`support`);
 * - `target`: exact when it holds a `:` (`approval:<id>`); a bare account id matches `account:<id>` and `order:<id>:…`,
 *   and so does the account's number (any case) once the desk knows it (the account directory);
 * - `party`: maker or checker: entries where that email made an approval request (held, withdrawn, or named maker in
 *   the execution or the expiry) or decided one (approved, rejected, or named checker in the execution);
 * - `request`: the upstream request id; `from`/`to`: UTC days, both included.
 */
export const auditFilterSchema = z.object({
  action: text(100),
  actor: email,
  role: z.enum(ROLES).optional().catch(undefined),
  target: text(200),
  outcome: z.enum(AUDIT_OUTCOMES).optional().catch(undefined),
  party: email,
  request: text(200),
  from: day,
  to: day,
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

/** The channels besides the desk's pages that act for a staff member with one of their access tokens. */
export const AUDIT_CHANNELS = ["mcp", "skills", "cli"] as const;
export type AuditChannel = (typeof AUDIT_CHANNELS)[number];
export const CHANNEL_LABELS: Record<AuditChannel, string> = { mcp: "MCP tool", skills: "Skills endpoint", cli: "Command line" };

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
  /** Null for the desk's pages. */
  channel: AuditChannel | null;
  tokenId: string | null;
  input: unknown;
}

/** One entry with every column, as its detail page shows it. */
export interface AuditEntryView extends AuditListRow {
  actorId: string | null;
  prevHash: string;
  hash: string;
}
