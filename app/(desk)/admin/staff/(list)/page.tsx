import type { Metadata } from "next";
import { ListPage } from "@/components/data-table/list-page";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { TwoFactorRolesForm } from "@/components/staff/two-factor-roles-form";
import { staffList } from "@/components/staff/query-keys";
import { StaffTable } from "@/components/staff/staff-table";
import { staffListParams } from "@/lib/schemas/staff-list";
import { requirePermission } from "@/server/auth/guard";
import { listStaffPage } from "@/server/auth/staff-list";
import { getDb } from "@/server/db";
import { requiredRoles } from "@/server/two-factor/two-factor";

export const metadata: Metadata = { title: "Staff" };

/** Thin page: permission, URL state, the first page prefetched; the client table keeps it live. */
export default async function StaffPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const me = await requirePermission("staff:manage");
  const params = staffListParams.parse(await searchParams);
  const db = await getDb();
  const twoFactorRoles = await requiredRoles(db);
  return (
    <ListPage
      title="Staff"
      description="Who can sign in to the back office, with which role."
      prefetch={(client) =>
        client.prefetchQuery({
          queryKey: staffList.key(params),
          queryFn: () => listStaffPage(db, { sort: params.sort, cursor: params.cursor, limit: params.size }),
        })
      }
    >
      <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
        <StaffTable meId={me.id} />
        <div className="flex flex-col gap-5">
          <CreateStaffForm />
          <TwoFactorRolesForm required={twoFactorRoles} />
        </div>
      </div>
    </ListPage>
  );
}
