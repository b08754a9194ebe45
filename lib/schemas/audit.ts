import { z } from "zod";

/** The audit trail's filters, from the URL: one schema for the page and the CSV export. Bad values are dropped. */
export const auditFilterSchema = z.object({
  action: z.string().trim().max(100).optional().catch(undefined),
  actor: z.string().trim().max(254).optional().catch(undefined),
  outcome: z.enum(["success", "failure", "denied"]).optional().catch(undefined),
  before: z.coerce.number().int().positive().optional().catch(undefined),
  verify: z.literal("1").optional().catch(undefined),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export function auditFilterQuery(filter: AuditFilter, extra: Record<string, string | number | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ action: filter.action, actor: filter.actor, outcome: filter.outcome, ...extra })) if (v) q.set(k, String(v));
  return q.toString();
}
