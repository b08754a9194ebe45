import { HomeView } from "@/components/shell/home-view";
import { PageHeader } from "@/components/ui/page";
import { mainJobOf } from "@/lib/auth/permissions";
import { requireStaff } from "@/server/auth/guard";
import { homePage } from "@/server/home/page-data";

export const dynamic = "force-dynamic";

/** Thin page: the staff member, their day's data (server/home), the view (components/shell/home-view.tsx). */
export default async function HomePage() {
  const staff = await requireStaff();
  return (
    <>
      <PageHeader
        title={`Good to see you, ${staff.name.split(" ")[0]}`}
        description={`Signed in as ${staff.roleLabel}. ${mainJobOf(staff)}`}
      />
      <HomeView {...await homePage(staff)} />
    </>
  );
}
