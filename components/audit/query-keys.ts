import { listResource } from "@/components/data-table/list-resource";
import { auditListParams, type AuditListParams } from "@/lib/schemas/audit";

/** The trail's page: query key (root `audit`, the live channel's) and GET route. */
export const auditList = listResource<AuditListParams>("audit", "/api/audit", auditListParams);
