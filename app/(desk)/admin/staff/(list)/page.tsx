import type { Metadata } from "next";
import { listPage } from "@/app/(desk)/list-page";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { TwoFactorRolesForm } from "@/components/staff/two-factor-roles-form";
import { staffList } from "@/components/staff/query-keys";
import { StaffTable } from "@/components/staff/staff-table";
import { staffListParams } from "@/lib/schemas/staff-list";
import { listStaffPage } from "@/server/auth/staff-list";
import { requiredRoles } from "@/server/two-factor/two-factor";
import { roleOptions } from "@/server/roles/roles";
import { LinkButton } from "@/components/ui/button";

export const metadata = { title: "Staff" } satisfies Metadata;

/**
 * The first page of staff users prefetched beside the form that adds one and the roles that require two-factor
 * sign-in; the client table keeps it live.
 */
export default listPage(metadata, "staff:manage", staffListParams, async (params, { staff, db }) => {
  const roles = await roleOptions(db);
  return {
    description: "Who can sign in to the back office, with which role.",
    actions: <LinkButton href="/admin/roles">Roles and permissions</LinkButton>,
    prefetch: [
      {
        queryKey: staffList.key(params),
        queryFn: () => listStaffPage(db, { sort: params.sort, cursor: params.cursor, limit: params.size }),
      },
    ],
    table: (
      <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
        <StaffTable meId={staff.id} roles={roles} />
        <div className="flex flex-col gap-5">
          <CreateStaffForm roles={roles} />
          <TwoFactorRolesForm required={await requiredRoles(db)} roles={roles} />
        </div>
      </div>
    ),
  };
});
