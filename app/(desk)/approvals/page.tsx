import type { Metadata } from "next";
import { ApprovalsTable } from "@/components/approvals/approvals-table";
import { PageHeader } from "@/components/ui/page";
import { approvalListParams } from "@/lib/schemas/approvals";
import { listApprovals } from "@/server/approvals/requests";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Approvals" };

/** Thin page: permission, URL state, one keyset page (pending first, what is due expired first); the table navigates. */
export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("approvals:read");
  const params = approvalListParams.parse(await searchParams);
  const page = await listApprovals(await getDb(), approvalListParams.filters(params), { cursor: params.cursor, limit: params.size });
  return (
    <>
      <PageHeader title="Approvals" description="Requests an approval rule holds until other people approve them; pending first." />
      <ApprovalsTable page={page} now={new Date().toISOString()} />
    </>
  );
}
