import { listResource } from "@/components/data-table/list-resource";
import type { PendingMarksQuery } from "@/lib/schemas/approval-queue";
import { approvalListParams, type ApprovalListParams } from "@/lib/schemas/approvals";

/** The inbox's page: query key (root `approvals`, the live channel's) and GET route. */
export const approvalList = listResource<ApprovalListParams>("approvals", "/api/approvals", approvalListParams);

/** The held requests touching an account or holding a movement (their pages' marker), under the same root. */
export const pendingMarksResource = {
  key: (by: PendingMarksQuery) => ["approvals", "pending", by] as const,
  url: (by: PendingMarksQuery) =>
    "account" in by
      ? `/api/approvals/pending?account=${encodeURIComponent(by.account)}`
      : `/api/approvals/pending?clientRequestId=${encodeURIComponent(by.clientRequestId)}`,
};
