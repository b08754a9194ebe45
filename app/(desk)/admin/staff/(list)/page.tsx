import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { makeQueryClient } from "@/components/data-table/query-client";
import { PageHeader } from "@/components/ui/page";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { staffList } from "@/components/staff/query-keys";
import { StaffTable } from "@/components/staff/staff-table";
import { staffListParams } from "@/lib/schemas/staff-list";
import { requirePermission } from "@/server/auth/guard";
import { listStaffPage } from "@/server/auth/staff-list";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Staff" };

/** Thin page: permission, URL state, the first page prefetched; the client table keeps it live. */
export default async function StaffPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const me = await requirePermission("staff:manage");
  const params = staffListParams.parse(await searchParams);
  const db = await getDb();
  const queryClient = makeQueryClient();
  await queryClient.prefetchQuery({
    queryKey: staffList.key(params),
    queryFn: () => listStaffPage(db, { sort: params.sort, cursor: params.cursor, limit: params.size }),
  });
  return (
    <>
      <PageHeader title="Staff" description="Who can sign in to the back office, with which role." />
      <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
        <HydrationBoundary state={dehydrate(queryClient)}>
          <StaffTable meId={me.id} />
        </HydrationBoundary>
        <CreateStaffForm />
      </div>
    </>
  );
}
