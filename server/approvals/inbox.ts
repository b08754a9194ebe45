import "server-only";
import { approvalListParams, type ApprovalInboxPage, type ApprovalListParams } from "@/lib/schemas/approvals";
import type { AppDb } from "@/server/db";
import { listApprovals } from "./requests";

/** One page of the inbox as the table shows it (the page's prefetch and GET /api/approvals). */
export async function approvalInboxPage(db: AppDb, params: ApprovalListParams): Promise<ApprovalInboxPage> {
  const page = await listApprovals(db, approvalListParams.filters(params), { cursor: params.cursor, limit: params.size });
  return { ...page, now: new Date().toISOString() };
}
