import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { formatDateTime } from "@/lib/format";
import { RULE_KIND_LABELS, RULE_KINDS, ruleParamsText, type RuleKind, type SurveillanceRule } from "@/lib/schemas/surveillance";
import { RuleForm } from "./rule-form";

const link = "text-blue-700 hover:underline";

const RULE_COLUMNS: RowColumn<SurveillanceRule>[] = [
  { head: "#", className: "text-slate-500", cell: (r) => r.id },
  { head: "Rule", cell: (r) => r.name },
  { head: "Kind", className: "text-xs", cell: (r) => RULE_KIND_LABELS[r.kind] ?? r.kind },
  { head: "Parameters", className: "text-xs", cell: (r) => ruleParamsText(r.kind, r.params) },
  { head: "State", cell: (r) => (r.enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Off</Badge>) },
  {
    head: "Changed",
    className: "text-xs whitespace-nowrap",
    cell: (r) => (
      <>
        {formatDateTime(r.updatedAt)}
        {r.updatedBy ? <div className="text-[11px] text-slate-500">{r.updatedBy}</div> : null}
      </>
    ),
  },
  {
    head: "",
    cell: (r) => (
      <Link href={`/admin/surveillance?edit=${r.id}`} className={link}>
        Edit
      </Link>
    ),
  },
];

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
      <RowsTable columns={RULE_COLUMNS} rows={rules} rowKey={(r) => r.id} rowProps={() => ({ "data-testid": "rule-row" })} />
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
