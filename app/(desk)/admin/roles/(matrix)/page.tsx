import type { Metadata } from "next";
import { RolesView } from "@/components/roles/roles-view";
import { LinkButton } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listRoles } from "@/server/roles/roles";

export const metadata: Metadata = { title: "Roles" };

/** Thin page: permission, the roles, the URL's choice of form (`edit=<key>`); the view is components/roles. */
export default async function RolesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("staff:manage");
  const [search, roles] = await Promise.all([searchParams, getDb().then(listRoles)]);
  const edit = typeof search.edit === "string" ? search.edit : undefined;
  return (
    <>
      <PageHeader
        title="Roles and permissions"
        description="What each role may see and do, and who holds it. Make a custom role from the permission list; a change applies at its holders' next request."
        actions={<LinkButton href="/admin/staff">Staff</LinkButton>}
      />
      <RolesView roles={roles} editing={roles.find((r) => r.key === edit && !r.builtIn)} />
    </>
  );
}
