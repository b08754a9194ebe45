"use client";
import { useRouter } from "next/navigation";
import type { RoleOption } from "@/lib/schemas/roles";
import { useState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { table as cls } from "@/components/ui/page";
import { formatMoney } from "@/lib/money";
import { roleLabel, ruleActionLabel, type ApprovalRuleRow } from "@/lib/schemas/approvals";
import { setApprovalRuleEnabledAction } from "@/server/actions/approvals";
import { RuleForm } from "./rule-form";
import { describeRule, disableQuestion } from "./rule-words";

/** The rules (few: one table, no paging), enable / disable confirmed, and the one form for new and edited rules. */
export function RulesEditor({ rules, approverRoles }: { rules: ApprovalRuleRow[]; approverRoles: RoleOption[] }) {
  const router = useRouter();
  const [editing, setEditing] = useState<ApprovalRuleRow>();
  const [notice, setNotice] = useState<string>();
  const { run, busy, banner } = useAction();
  return (
    <div className="grid gap-5 xl:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="flex flex-col gap-2">
        <FormBanner banner={banner ?? (notice ? { tone: "success", text: notice } : undefined)} />
        <div className={cls.wrap}>
          <table className={cls.table}>
            <thead>
              <tr>
                <th className={cls.th}>Action</th>
                <th className={cls.th}>Currency</th>
                <th className={`${cls.th} text-right`}>Above amount</th>
                <th className={`${cls.th} text-right`}>Approvers</th>
                <th className={cls.th}>Roles</th>
                <th className={cls.th}>Status</th>
                <th className={cls.th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.length === 0 ? (
                <tr>
                  <td colSpan={7} className={cls.empty}>
                    No rules: nothing is held for approval.
                  </td>
                </tr>
              ) : (
                rules.map((r) => (
                  <tr key={r.id} data-testid="rule-row" className={editing?.id === r.id ? "bg-blue-50/60" : undefined}>
                    <td className={cls.td}>{ruleActionLabel(r.action)}</td>
                    <td className={cls.td}>{r.currency ?? <span className="text-slate-500">Any</span>}</td>
                    <td className={`${cls.td} num text-right tabular-nums whitespace-nowrap`}>
                      {r.threshold ? formatMoney(r.threshold, r.currency ?? undefined) : <span className="text-slate-500">Always</span>}
                    </td>
                    <td className={`${cls.td} num text-right tabular-nums`}>{r.approversRequired}</td>
                    <td className={`${cls.td} text-xs`}>{r.approverRoles.map(roleLabel).join(", ")}</td>
                    <td className={cls.td}>{r.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="slate">Disabled</Badge>}</td>
                    <td className={`${cls.td} text-right whitespace-nowrap`}>
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={busy}
                        onClick={() => {
                          setNotice(undefined);
                          setEditing(r);
                        }}
                      >
                        Edit
                      </Button>{" "}
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={busy}
                        onClick={() => {
                          const question = r.enabled
                            ? disableQuestion(r)
                            : `Enable the rule "${describeRule(r)}"? Such requests will be held for approval.`;
                          if (!window.confirm(question)) return;
                          void run(() => setApprovalRuleEnabledAction({ id: r.id, enabled: !r.enabled }), {
                            success: `Rule ${r.enabled ? "disabled" : "enabled"}.`,
                            onSuccess: () => router.refresh(),
                          });
                        }}
                      >
                        {r.enabled ? "Disable" : "Enable"}
                      </Button>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <p className="text-xs text-slate-500">
          Of several rules that apply to a request, the strictest (most approvers) holds it. The maker never approves their own request.
        </p>
      </div>
      <RuleForm
        key={editing?.id ?? "new"}
        rule={editing}
        approverRoles={approverRoles}
        onDone={(text) => {
          setNotice(text);
          setEditing(undefined);
          router.refresh();
        }}
      />
    </div>
  );
}
