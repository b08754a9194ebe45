import Link from "next/link";
import { forbidden, redirect } from "next/navigation";
import { QueryProvider } from "@/components/data-table/query-provider";
import { DeskShell } from "@/app/(desk)/desk-shell";
import { can } from "@/lib/auth/permissions";
import { env } from "@/lib/env";
import { ENROL_PATH, mustEnrolFirst } from "@/server/auth/enrolment";
import { currentStaff } from "@/server/auth/guard";

/**
 * The status page's frame: the desk's shell for a signed-in staff member (status:read, every role); with
 * STATUS_PUBLIC a plain frame for signed-out visitors (the page then shows states only); else sign in first. A
 * member whose role requires two-factor sign-in and who has not enrolled is sent to enrol.
 */
export default async function StatusLayout({ children }: { children: React.ReactNode }) {
  const staff = await currentStaff();
  if (staff) {
    if (!can(staff, "status:read")) forbidden();
    // Someone who owes an enrolment is sent to it, as from every desk page (its data route refuses them).
    if (await mustEnrolFirst(staff)) redirect(`${ENROL_PATH}?required=1`);
    return <DeskShell staff={staff}>{children}</DeskShell>;
  }
  if (!env().STATUS_PUBLIC) redirect("/sign-in?callbackUrl=%2Fstatus");
  return (
    <QueryProvider>
      <div className="min-h-screen">
        <header className="flex h-11 items-center justify-between bg-slate-900 px-4 text-sm">
          <span className="text-base font-semibold tracking-tight text-white">Brokerdesk</span>
          <Link href="/sign-in?callbackUrl=%2Fstatus" className="rounded px-2 py-1 text-slate-300 hover:bg-slate-800 hover:text-white">
            Staff sign-in
          </Link>
        </header>
        <main className="mx-auto max-w-6xl p-5">{children}</main>
      </div>
    </QueryProvider>
  );
}
