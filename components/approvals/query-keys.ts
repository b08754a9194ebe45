import { listResource } from "@/components/data-table/list-resource";
import { approvalListParams, type ApprovalListParams } from "@/lib/schemas/approvals";

/** The inbox's page: query key (root `approvals`, the live channel's) and GET route. */
export const approvalList = listResource<ApprovalListParams>("approvals", "/api/approvals", approvalListParams);
