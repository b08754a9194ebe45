import Link from "next/link";
import { Panel } from "@/components/ui/page";
import { PERMISSION_LABELS, PERMISSION_LIST } from "@/lib/auth/permissions";
import type { RoleView } from "@/lib/schemas/roles";
import { RoleForm } from "./role-form";

const th = "border-b border-slate-200 px-2 py-1.5 text-left text-xs font-medium text-slate-600";
const td = "border-b border-slate-100 px-2 py-1";

const heldBy = (r: RoleView) => r.holders.length + r.disabledHolders;

/** Who holds each role: enabled staff by email, and how many disabled ones. */
function Holders({ roles }: { roles: RoleView[] }) {
  return (
    <Panel title="Who holds what">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
        {roles.map((r) => (
          <div key={r.key} className="contents" data-testid={`role-holders-${r.key}`}>
            <dt className="font-medium text-slate-700">{r.label}</dt>
            <dd className="text-slate-700">
              {heldBy(r) === 0 ? <span className="text-slate-400">Nobody</span> : null}
              {r.holders.map((h, i) => (
                <span key={h} className="font-mono text-xs break-all">
                  {h}
                  {i < r.holders.length - 1 ? ", " : ""}
                </span>
              ))}
              {r.disabledHolders ? <span className="ml-1 text-xs text-slate-500">(+ {r.disabledHolders} disabled)</span> : null}
            </dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

/**
 * The permission matrix (a row a permission, a column a role, built-in roles first), who holds each role, and one
 * form: a new custom role, or the one being edited (`?edit=<key>`).
 */
export function RolesView({ roles, editing }: { roles: RoleView[]; editing?: RoleView }) {
  return (
    // The form beside the matrix on a wide screen; on a narrower one above it while editing (a role's Edit link is at
    // the matrix's top), below it otherwise.
    <div className="grid items-start gap-5 2xl:grid-cols-[1fr_26rem]">
      <div className={`overflow-x-auto rounded border border-slate-200 bg-white ${editing ? "order-2 2xl:order-1" : ""}`}>
        <table className="w-full border-collapse text-sm" data-testid="roles-matrix">
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              <th className={th} scope="col">
                Permission
              </th>
              {roles.map((r) => (
                <th key={r.key} className={`${th} min-w-24 text-center`} scope="col" data-testid={`role-col-${r.key}`}>
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
                  <span className="block whitespace-nowrap text-slate-900">{PERMISSION_LABELS[p]}</span>
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
                <td key={r.key} className={`${td} text-center text-xs tabular-nums`}>
                  {heldBy(r) === 1 ? "1 person" : `${heldBy(r)} people`}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <div className={`flex flex-col gap-3 ${editing ? "order-1 2xl:order-2" : ""}`}>
        <RoleForm key={editing?.key ?? "new"} role={editing} />
        <Holders roles={roles} />
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
