"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { RULE_KIND_LABELS, ruleFormSchema, type RuleFormValues, type RuleKind } from "@/lib/schemas/surveillance";
import { saveSurveillanceRule } from "@/server/actions/surveillance";

const { TextField, CurrencyField, CheckboxField } = formFields<RuleFormValues>();

const SAVED = "Rule saved. It applies to the movements and orders that arrive from now on.";

const disableQuestion = (name: string) =>
  `Disable the rule "${name}"? It stops raising alerts on the movements and orders that arrive; alerts it raised stay open.`;

/** A rule's name, on/off and its kind's parameters; new rules start from the kind chosen on the page. */
export function RuleForm({
  rule,
  saved,
}: {
  rule: { id?: string; kind: RuleKind; name: string; enabled: boolean; params: Record<string, unknown> };
  saved?: boolean;
}) {
  const router = useRouter();
  const p = rule.params;
  const text = (v: unknown, fallback: string) => (v === undefined || v === null ? fallback : String(v));
  const { form, onSubmit, submit, banner, setBanner, busy } = useActionForm({
    schema: ruleFormSchema,
    defaultValues: {
      id: rule.id,
      kind: rule.kind,
      name: rule.name,
      enabled: rule.enabled,
      currency: (p.currency as RuleFormValues["currency"]) ?? "USD",
      amount: text(p.amount, "50000"),
      days: text(p.days, "7"),
      tolerancePct: text(p.tolerancePct, "10"),
      minAmount: text(p.minAmount, "10000"),
      count: text(p.count, "5"),
      hours: text(p.hours, "24"),
    },
    action: saveSurveillanceRule,
    // Unticking "Enabled" on a rule that raises alerts turns it off: asked first, naming what stops.
    onValid: async (values) => {
      if (rule.id && rule.enabled && !values.enabled && !window.confirm(disableQuestion(rule.name))) return;
      await submit(values);
    },
    success: () => SAVED,
    // `saved=1`: a new rule's form is replaced by its edit form, which then says it was saved.
    onSuccess: (d) => router.replace(`/admin/surveillance?edit=${d.id}&saved=1`),
  });
  useEffect(() => {
    if (saved) setBanner({ tone: "success", text: SAVED });
  }, [saved, setBanner]);
  return (
    <Panel title={rule.id ? `Rule #${rule.id}: ${RULE_KIND_LABELS[rule.kind]}` : `New rule: ${RULE_KIND_LABELS[rule.kind]}`}>
      <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-3" data-testid="rule-form">
        <TextField name="name" label="Name" required autoComplete="off" />
        <CheckboxField name="enabled" label="Enabled: raise alerts as movements and orders arrive" />
        {rule.kind === "large_funding" ? (
          <div className="grid grid-cols-2 gap-3">
            <CurrencyField name="currency" label="Currency" required />
            <TextField
              name="amount"
              label="Above (amount)"
              required
              inputMode="decimal"
              hint="A single deposit or withdrawal larger than this"
            />
          </div>
        ) : null}
        {rule.kind === "withdrawal_after_deposit" ? (
          <div className="grid grid-cols-3 gap-3">
            <TextField name="days" label="Within (days)" required inputMode="numeric" />
            <TextField name="tolerancePct" label="Similar within (%)" required inputMode="numeric" />
            <TextField
              name="minAmount"
              label="Withdrawals from"
              required
              inputMode="decimal"
              hint="In the withdrawal's own currency; smaller ones are ignored"
            />
          </div>
        ) : null}
        {rule.kind === "journals_per_day" ? (
          <TextField
            name="count"
            label="More than (journals a day)"
            required
            inputMode="numeric"
            hint="Cash and position journals into one account, per UTC day"
          />
        ) : null}
        {rule.kind === "option_after_level_raise" ? (
          <TextField
            name="hours"
            label="Within (hours)"
            required
            inputMode="numeric"
            hint="An option order this soon after the desk raised the account's option level"
          />
        ) : null}
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : rule.id ? "Save rule" : "Create rule"}
          </Button>
        </div>
      </ActionForm>
    </Panel>
  );
}
