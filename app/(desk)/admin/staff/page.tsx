import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { StaffTable } from "@/components/staff/staff-table";
import { requirePermission } from "@/server/auth/guard";
import { listStaff } from "@/server/auth/staff";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Staff" };

export default async function StaffPage() {
  const me = await requirePermission("staff:manage");
  const users = await listStaff(await getDb());
  return (
    <>
      <PageHeader title="Staff" description="Who can sign in to the back office, with which role." />
      <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
        <StaffTable
          meId={me.id}
          users={users.map((u) => ({
            id: u.id,
            email: u.email,
            name: u.name,
            role: u.role,
            disabled: u.disabled,
            locked: u.locked,
            lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
          }))}
        />
        <CreateStaffForm />
      </div>
    </>
  );
}
