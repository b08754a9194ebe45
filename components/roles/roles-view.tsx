import Link from "next/link";
import { Panel } from "@/components/ui/page";
import { PERMISSION_LABELS, PERMISSION_LIST } from "@/lib/auth/permissions";
import type { RoleView } from "@/lib/schemas/roles";
import { RoleForm } from "./role-form";

const th = "border-b border-slate-200 px-2 py-1.5 text-left text-xs font-medium text-slate-600";
const td = "border-b border-slate-100 px-2 py-1";

/** Who holds a role: enabled staff by email, and how many disabled ones. */
function Holders({ role }: { role: RoleView }) {
  if (!role.holders.length && !role.disabledHolders) return <span className="text-slate-400">Nobody</span>;
  return (
    <span className="flex flex-col">
      {role.holders.map((h) => (
        <span key={h} className="font-mono text-[11px]">
          {h}
        </span>
      ))}
      {role.disabledHolders ? <span className="text-[11px] text-slate-500">+ {role.disabledHolders} disabled</span> : null}
    </span>
  );
}

/**
 * The permission matrix (a row a permission, a column a role, built-in roles first), who holds each role, and one
 * form: a new custom role, or the one being edited (`?edit=<key>`).
 */
export function RolesView({ roles, editing }: { roles: RoleView[]; editing?: RoleView }) {
  return (
    <div className="grid items-start gap-5 xl:grid-cols-[1fr_24rem]">
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className="w-full border-collapse text-sm" data-testid="roles-matrix">
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              <th className={th} scope="col">
                Permission
              </th>
              {roles.map((r) => (
                <th key={r.key} className={`${th} text-center`} scope="col" data-testid={`role-col-${r.key}`}>
                  <span className="block whitespace-nowrap text-slate-900">{r.label}</span>
                  {r.builtIn ? (
                    <span className="text-[11px] font-normal text-slate-500">built-in</span>
                  ) : (
                    <Link href={`/admin/roles?edit=${r.key}`} className="text-[11px] font-normal text-blue-700 hover:underline">
                      Edit
                    </Link>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PERMISSION_LIST.map((p) => (
              <tr key={p} className="hover:bg-slate-50">
                <th scope="row" className={`${td} text-left font-normal`}>
                  <span className="block text-slate-900">{PERMISSION_LABELS[p]}</span>
                  <span className="font-mono text-[11px] text-slate-500">{p}</span>
                </th>
                {roles.map((r) =>
                  r.permissions.includes(p) ? (
                    <td key={r.key} className={`${td} text-center font-semibold text-green-700`} aria-label={`${r.label}: ${p} granted`}>
                      ✓
                    </td>
                  ) : (
                    <td key={r.key} className={`${td} text-center text-slate-300`} aria-label={`${r.label}: ${p} not granted`}>
                      ·
                    </td>
                  ),
                )}
              </tr>
            ))}
            <tr className="align-top">
              <th scope="row" className={`${td} text-left font-medium text-slate-700`}>
                Held by
              </th>
              {roles.map((r) => (
                <td key={r.key} className={`${td} text-center text-xs`} data-testid={`role-holders-${r.key}`}>
                  <Holders role={r} />
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <div className="flex flex-col gap-3">
        <RoleForm key={editing?.key ?? "new"} role={editing} />
        {editing ? (
          <Link href="/admin/roles" className="text-sm text-blue-700 hover:underline">
            New role instead
          </Link>
        ) : (
          <Panel title="About roles">
            <p className="text-sm text-slate-600">
              The four built-in roles stay as they are. A custom role holds exactly the permissions ticked here; give it to staff on the
              Staff page. A role someone holds cannot be deleted.
            </p>
          </Panel>
        )}
      </div>
    </div>
  );
}
