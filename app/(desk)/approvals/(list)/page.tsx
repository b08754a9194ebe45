import type { Metadata } from "next";
import { approvalList } from "@/components/approvals/query-keys";
import { ApprovalsTable } from "@/components/approvals/approvals-table";
import { ListPage } from "@/components/data-table/list-page";
import { approvalListParams } from "@/lib/schemas/approvals";
import { approvalInboxPage } from "@/server/approvals/inbox";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Approvals" };

/** Thin page: permission, URL state, the first page prefetched (pending first); the client table keeps it live. */
export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("approvals:read");
  const params = approvalListParams.parse(await searchParams);
  const db = await getDb();
  return (
    <ListPage
      title="Approvals"
      description="Requests an approval rule holds until other people approve them; pending first. New requests and decisions appear as they happen."
      prefetch={(client) => client.prefetchQuery({ queryKey: approvalList.key(params), queryFn: () => approvalInboxPage(db, params) })}
    >
      <ApprovalsTable />
    </ListPage>
  );
}
