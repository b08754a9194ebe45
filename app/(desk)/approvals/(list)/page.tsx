import type { Metadata } from "next";
import { listPage } from "@/app/(desk)/list-page";
import { approvalList } from "@/components/approvals/query-keys";
import { ApprovalsTable } from "@/components/approvals/approvals-table";
import { approvalListParams } from "@/lib/schemas/approvals";
import { can } from "@/lib/auth/permissions";
import { approvalInboxPage } from "@/server/approvals/inbox";

export const metadata = { title: "Approvals" } satisfies Metadata;

/** The inbox's first page prefetched (pending first); the client table keeps it live, and offers bulk decisions to deciders. */
export default listPage(metadata, "approvals:read", approvalListParams, (params, { db, staff }) => ({
  description:
    "Requests an approval rule holds until other people approve them; pending first. New requests and decisions appear as they happen.",
  prefetch: [{ queryKey: approvalList.key(params), queryFn: () => approvalInboxPage(db, params) }],
  table: <ApprovalsTable canDecide={can(staff, "approvals:decide")} />,
}));
