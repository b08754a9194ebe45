import { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";

/**
 * The account timeline: one stream, newest first, of what the desk's own records say about one account. Each kind
 * is one source (a table, or a slice of the audit trail) and is read only by roles with that source's permission.
 */
export const TIMELINE_KINDS = ["account", "movement", "order", "fill", "approval", "staff", "alert"] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  account: "Account changes",
  movement: "Journals, funding, FX",
  order: "Orders",
  fill: "Fills",
  approval: "Approvals",
  staff: "Staff actions",
  alert: "Alerts",
};

/** Who reads each source. Account changes come with the account; the rest of the audit trail needs `audit:read`. */
export const TIMELINE_KIND_PERMISSION: Record<TimelineKind, Permission> = {
  account: "accounts:read",
  movement: "movements:read",
  order: "orders:read",
  fill: "orders:read",
  approval: "approvals:read",
  staff: "audit:read",
  alert: "alerts:read",
};

export const TIMELINE_PAGE_SIZE = 50;

const kindList = z
  .string()
  .optional()
  .transform((v) =>
    v ? [...new Set(v.split(",").filter((k): k is TimelineKind => (TIMELINE_KINDS as readonly string[]).includes(k)))] : [],
  );

/** The URL state (`?kinds=order,fill&cursor=…`): no kinds means every kind the role reads; unknown kinds are dropped. */
export const timelineParamsSchema = z.object({
  // An upstream id: no control characters (PostgreSQL refuses NUL in text).
  accountId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[^\u0000-\u001f\u007f]+$/),
  kinds: kindList.catch([]),
  cursor: z.string().max(512).optional().catch(undefined),
});

export interface TimelineEntry {
  /** Unique in the stream: `<kind>:<id>`. */
  key: string;
  kind: TimelineKind;
  /** ISO 8601. */
  at: string;
  title: string;
  detail?: string;
  status?: string;
  actor?: string;
  href?: string;
}

export interface TimelinePage {
  entries: TimelineEntry[];
  nextCursor?: string;
  /** The kinds this page was read from (the asked ones the role may read). */
  kinds: TimelineKind[];
}

export function timelineQuery(p: { kinds?: readonly TimelineKind[]; cursor?: string }): string {
  const q = new URLSearchParams();
  if (p.kinds?.length) q.set("kinds", p.kinds.join(","));
  if (p.cursor) q.set("cursor", p.cursor);
  const s = q.toString();
  return s ? `?${s}` : "";
}
