import Link from "next/link";
import { PageHeader, Panel } from "@/components/ui/page";
import { can, CAPABILITIES, ROLE_LABELS } from "@/lib/auth/permissions";
import { navFor } from "@/lib/navigation";
import { requireStaff } from "@/server/auth/guard";

export default async function HomePage() {
  const staff = await requireStaff();
  const capabilities = CAPABILITIES.filter((c) => can(staff.role, c.permission));
  const pages = navFor(staff.role).filter((item) => item.href !== "/");
  return (
    <>
      <PageHeader title={`Good to see you, ${staff.name.split(" ")[0]}`} description={`Signed in as ${ROLE_LABELS[staff.role]}.`} />
      <div className="grid max-w-4xl gap-4 md:grid-cols-2">
        <Panel title="What you can do">
          {capabilities.length ? (
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700" data-testid="capabilities">
              {capabilities.map((c) => (
                <li key={c.permission}>{c.text}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600" data-testid="capabilities">
              Your role has no back-office pages yet beyond this one. The desk grows as workflows land.
            </p>
          )}
        </Panel>
        <Panel title="Go to">
          {pages.length ? (
            <ul className="space-y-1 text-sm">
              {pages.map((p) => (
                <li key={p.href}>
                  <Link className="text-blue-700 hover:underline" href={p.href}>
                    {p.label}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">No other pages for your role yet.</p>
          )}
        </Panel>
      </div>
    </>
  );
}
