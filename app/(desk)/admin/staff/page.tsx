import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { StaffTable } from "@/components/staff/staff-table";
import { staffListParams } from "@/lib/schemas/staff-list";
import { requirePermission } from "@/server/auth/guard";
import { listStaffPage } from "@/server/auth/staff-list";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Staff" };

export default async function StaffPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const me = await requirePermission("staff:manage");
  const params = staffListParams.parse(await searchParams);
  const page = await listStaffPage(await getDb(), { sort: params.sort, cursor: params.cursor, limit: params.size });
  return (
    <>
      <PageHeader title="Staff" description="Who can sign in to the back office, with which role." />
      <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
        <StaffTable meId={me.id} page={page} />
        <CreateStaffForm />
      </div>
    </>
  );
}
