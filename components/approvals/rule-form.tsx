"use client";
import { useEffect } from "react";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Options } from "@/components/ui/field";
import { Panel } from "@/components/ui/page";
import {
  APPROVAL_RULE_ACTION_KEYS,
  APPROVAL_RULE_ACTIONS,
  approvalRuleSchema,
  NO_AMOUNT_RULE_ACTIONS,
  type ApprovalRuleRow,
  type ApprovalRuleValues,
} from "@/lib/schemas/approvals";
import type { RoleOption } from "@/lib/schemas/roles";
import { saveApprovalRuleAction } from "@/server/actions/approvals";
import { disableQuestion } from "./rule-words";

const F = formFields<ApprovalRuleValues>();

const valuesOf = (rule?: ApprovalRuleRow): ApprovalRuleValues =>
  rule
    ? {
        id: rule.id,
        action: rule.action as ApprovalRuleValues["action"],
        currency: (rule.currency ?? "") as ApprovalRuleValues["currency"],
        threshold: rule.threshold ?? "",
        approversRequired: String(rule.approversRequired),
        approverRoles: rule.approverRoles as ApprovalRuleValues["approverRoles"],
        enabled: rule.enabled,
      }
    : {
        action: "movements.cash_journal",
        currency: "",
        threshold: "",
        approversRequired: "1",
        approverRoles: ["operations"],
        enabled: true,
      };

/** One form for a new rule and for editing one (keyed by the rule, so choosing another rule starts afresh). */
export function RuleForm({
  rule,
  approverRoles,
  onDone,
}: {
  rule?: ApprovalRuleRow;
  approverRoles: RoleOption[];
  onDone: (notice?: string) => void;
}) {
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: approvalRuleSchema,
    defaultValues: valuesOf(rule),
    action: saveApprovalRuleAction,
    // Unticking "Enabled" turns the rule off as its Disable button does, and asks as that button does.
    onValid: async (values) => {
      if (rule?.enabled && !values.enabled && !window.confirm(disableQuestion(rule))) return;
      await submit(values);
    },
    success: rule ? "Rule saved." : "Rule created.",
    onSuccess: (_r, f) => {
      f.reset(valuesOf());
      // An edit closes this form (a new one takes its place), so the editor says it was saved.
      onDone(rule ? "Rule saved." : undefined);
    },
  });
  const action = form.watch("action");
  const noAmount = NO_AMOUNT_RULE_ACTIONS.includes(action as string);
  // An action without an amount takes no currency or threshold: clear what was chosen before (the fields lock).
  useEffect(() => {
    if (noAmount) {
      form.setValue("currency", "");
      form.setValue("threshold", "");
    }
  }, [noAmount, form]);
  return (
    <Panel title={rule ? "Edit rule" : "New rule"}>
      <ActionForm
        form={form}
        onSubmit={onSubmit}
        banner={banner}
        className="flex flex-col gap-3"
        aria-label={rule ? "Edit rule" : "New rule"}
      >
        <F.SelectField name="action" label="Action" required>
          <Options values={APPROVAL_RULE_ACTION_KEYS} labels={APPROVAL_RULE_ACTIONS} />
        </F.SelectField>
        <div className="grid grid-cols-[7rem_1fr] gap-3">
          <F.CurrencyField name="currency" label="Currency" disabled={noAmount} any="Any" />
          <F.TextField
            name="threshold"
            label="Above amount"
            inputMode="decimal"
            placeholder={noAmount ? "No amount" : "Always"}
            disabled={noAmount}
            className="text-right tabular-nums"
            hint={noAmount ? undefined : "Empty: every amount"}
          />
        </div>
        <F.SelectField name="approversRequired" label="Approvers needed" required>
          <Options values={[1, 2, 3]} />
        </F.SelectField>
        <F.CheckboxGroupField name="approverRoles" label="Roles that may approve" options={approverRoles} />
        <F.CheckboxField name="enabled" label="Enabled" />
        <div className="flex gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : rule ? "Save rule" : "Create rule"}
          </Button>
          {rule ? (
            <Button variant="ghost" onClick={() => onDone()} disabled={busy}>
              Cancel
            </Button>
          ) : null}
        </div>
      </ActionForm>
    </Panel>
  );
}
