import "server-only";
import type { Permission } from "@/lib/auth/permissions";
import { type AuditInput } from "@/server/audit/entry";
import { appendAudit } from "@/server/audit/trail";
import type { Staff } from "@/server/auth/guard";
import { metaFromHeaders } from "@/server/auth/request-meta";
import { getDb } from "@/server/db";
import { authorize } from "./route";

export type DownloadAudit = (staff: Staff, entry: Pick<AuditInput, "input" | "outcome" | "errorCode" | "target">) => Promise<unknown>;

/**
 * The first step of an audited download (a CSV export, a file): the staff member holding `permission` and the writer
 * of the download's one audit entry, or the refusal to answer, a missing permission (or enrolment) audited as denied.
 */
export async function authorizeDownload(
  request: Request,
  action: string,
  permission: Permission,
): Promise<{ staff: Staff; audit: DownloadAudit } | { response: Response }> {
  const meta = metaFromHeaders(request.headers);
  const audit: DownloadAudit = async (staff, entry) =>
    appendAudit(await getDb(), { actorId: staff.id, actorEmail: staff.email, actorRole: staff.role, action, ...meta, ...entry });
  const auth = await authorize(permission);
  if ("response" in auth) {
    if (auth.denied) await audit(auth.denied, { outcome: "denied", errorCode: auth.code ?? "FORBIDDEN" });
    return auth;
  }
  return { staff: auth.staff, audit };
}
