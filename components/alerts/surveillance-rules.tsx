import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { table } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { RULE_KIND_LABELS, RULE_KINDS, type RuleKind, type SurveillanceRule } from "@/lib/schemas/surveillance";
import { RuleForm } from "./rule-form";

const link = "text-blue-700 hover:underline";

function paramsText(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(" · ");
}

/** What the rules page shows for its URL: the rule being edited (`edit=<id>`) or the kind of a new one (`new=<kind>`). */
export function rulesView(rules: SurveillanceRule[], search: Record<string, string | string[] | undefined>) {
  const editing = typeof search.edit === "string" ? rules.find((r) => r.id === search.edit) : undefined;
  const newKind =
    typeof search.new === "string" && (RULE_KINDS as readonly string[]).includes(search.new) ? (search.new as RuleKind) : undefined;
  return { editing, newKind, saved: !!editing && search.saved === "1" };
}

/** The surveillance rules as data: a table of them, and one form (edit a rule, or create one of a kind). */
export function SurveillanceRules({ rules, editing, newKind, saved }: { rules: SurveillanceRule[] } & ReturnType<typeof rulesView>) {
  return (
    <div className="flex flex-col gap-4">
      <div className={table.wrap}>
        <table className={table.table}>
          <thead>
            <tr>
              <th className={table.th}>#</th>
              <th className={table.th}>Rule</th>
              <th className={table.th}>Kind</th>
              <th className={table.th}>Parameters</th>
              <th className={table.th}>State</th>
              <th className={table.th}>Changed</th>
              <th className={table.th} />
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id} data-testid="rule-row">
                <td className={`${table.td} text-slate-500`}>{r.id}</td>
                <td className={table.td}>{r.name}</td>
                <td className={`${table.td} text-xs`}>{RULE_KIND_LABELS[r.kind] ?? r.kind}</td>
                <td className={`${table.td} font-mono text-xs`}>{paramsText(r.params)}</td>
                <td className={table.td}>{r.enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Off</Badge>}</td>
                <td className={`${table.td} text-xs whitespace-nowrap`}>
                  {formatDateTime(r.updatedAt)}
                  {r.updatedBy ? <div className="text-[11px] text-slate-500">{r.updatedBy}</div> : null}
                </td>
                <td className={table.td}>
                  <Link href={`/admin/surveillance?edit=${r.id}`} className={link}>
                    Edit
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-600">New rule:</span>
        {RULE_KINDS.map((k) => (
          <Link
            key={k}
            href={`/admin/surveillance?new=${k}`}
            className="rounded border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-100"
          >
            {RULE_KIND_LABELS[k]}
          </Link>
        ))}
      </div>
      {editing || newKind ? (
        <div className="max-w-2xl">
          <RuleForm
            key={editing ? `edit-${editing.id}` : `new-${newKind}`}
            rule={editing ?? { kind: newKind!, name: "", enabled: true, params: {} }}
            saved={saved}
          />
        </div>
      ) : null}
    </div>
  );
}
