import { z } from "zod";
import { listParams, type StateOf } from "@/lib/list-params";
import { amountProblem, CURRENCIES, currencyIn, formatMoney } from "@/lib/money";

/**
 * Surveillance: rule kinds and their parameters (data an administrator edits), the alert queue's URL state and a
 * reviewer's decision. Shared by the forms, the actions, the route handlers and the evaluator.
 */
export const RULE_KINDS = ["large_funding", "withdrawal_after_deposit", "journals_per_day", "option_after_level_raise"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export const RULE_KIND_LABELS: Record<RuleKind, string> = {
  large_funding: "Deposit or withdrawal above a threshold",
  withdrawal_after_deposit: "Withdrawal soon after a similar deposit",
  journals_per_day: "Many journals into one account in a day",
  option_after_level_raise: "Option order soon after an option level raise",
};

const decimal = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => !amountProblem(v, "USD", "positive"), `${label}: a positive amount such as 50000`);
const whole = (label: string, min: number, max: number) =>
  z.union([z.number(), z.string().trim()]).transform((v, ctx) => {
    const n = typeof v === "number" ? v : /^\d{1,6}$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: "custom", message: `${label}: a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return n;
  });

/** Each kind's parameters, as stored in `surveillance_rules.params`. */
export const RULE_PARAMS = {
  large_funding: z.object({ currency: currencyIn, amount: decimal("Amount") }),
  withdrawal_after_deposit: z.object({
    days: whole("Days", 1, 365),
    tolerancePct: whole("Tolerance", 0, 100),
    minAmount: decimal("Smallest amount"),
  }),
  journals_per_day: z.object({ count: whole("Journals", 1, 1000) }),
  option_after_level_raise: z.object({ hours: whole("Hours", 1, 24 * 90) }),
} satisfies Record<RuleKind, z.ZodType>;
export type RuleParams = { [K in RuleKind]: z.output<(typeof RULE_PARAMS)[K]> };

/** A rule's parameters in words ("Above 50,000.00 USD"), as the rules page lists them. */
export function ruleParamsText(kind: string, params: Record<string, unknown>): string {
  const p = params as Record<string, string | number>;
  switch (kind) {
    case "large_funding":
      return `Above ${formatMoney(String(p.amount), String(p.currency), 2)}`;
    // The smallest withdrawal is compared with each withdrawal's amount in its own currency (the rule has none).
    case "withdrawal_after_deposit":
      return `Within ${p.days} days of the deposit, amounts within ${p.tolerancePct} % of each other, withdrawals from ${formatMoney(String(p.minAmount), undefined, 2)} in any currency`;
    case "journals_per_day":
      return `More than ${p.count} journals a day`;
    case "option_after_level_raise":
      return `Within ${p.hours} hours of the raise`;
    default:
      return Object.entries(params)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(" · ");
  }
}

/** The rule form: every kind's fields as text (the action keeps those of the rule's kind). */
export const ruleFormSchema = z
  .object({
    id: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
    kind: z.enum(RULE_KINDS),
    name: z.string().trim().min(3, "Name the rule (at least 3 characters)").max(120),
    enabled: z.boolean(),
    currency: z.enum(CURRENCIES).optional(),
    amount: z.string().optional(),
    days: z.string().optional(),
    tolerancePct: z.string().optional(),
    minAmount: z.string().optional(),
    count: z.string().optional(),
    hours: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    const parsed = (RULE_PARAMS as Record<string, z.ZodType | undefined>)[v.kind]?.safeParse(v);
    if (parsed && !parsed.success)
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  });
export type RuleFormValues = z.input<typeof ruleFormSchema>;

/** The parameters of a validated form, for its kind. */
export function ruleParamsOf(values: z.output<typeof ruleFormSchema>): RuleParams[RuleKind] {
  return RULE_PARAMS[values.kind].parse(values);
}

export interface SurveillanceRule {
  id: string;
  kind: RuleKind;
  name: string;
  enabled: boolean;
  params: Record<string, unknown>;
  updatedAt: string;
  updatedBy: string | null;
}

export const ALERT_STATUSES = ["open", "cleared", "escalated"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
export const ALERT_STATUS_LABELS: Record<AlertStatus, string> = { open: "Open", cleared: "Cleared", escalated: "Escalated" };

/** How long ago the alert was raised. */
export const ALERT_AGES = ["1d", "7d", "30d", "older"] as const;
export const ALERT_AGE_LABELS: Record<(typeof ALERT_AGES)[number], string> = {
  "1d": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  older: "Older than 30 days",
};

export const alertFilterSchema = z.object({
  rule: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional()
    .catch(undefined),
  status: z.enum(ALERT_STATUSES).optional().catch(undefined),
  age: z.enum(ALERT_AGES).optional().catch(undefined),
});
export type AlertFilter = z.infer<typeof alertFilterSchema>;

/** The queue's URL state: newest first. */
export const alertListParams = listParams({
  filters: alertFilterSchema.shape,
  sizes: [25, 50, 100],
  defaultSize: 50,
});
export type AlertListParams = StateOf<typeof alertListParams>;

export interface MovementRef {
  kind: string;
  client_request_id: string;
  direction?: string | null;
  amount?: string | null;
  currency?: string | null;
  /** Alerts raised before the market was recorded have none. */
  market?: string | null;
  symbol?: string | null;
  quantity?: string | null;
  from_account?: string | null;
  to_account?: string | null;
  status?: string | null;
  at?: string | null;
}

export interface OrderRef {
  id: string;
  client_order_id: string;
  /** Alerts raised before the market was recorded have none: an option's is US. */
  market?: string | null;
  symbol?: string | null;
  side?: string | null;
  status?: string | null;
  at?: string | null;
}

/** An alert as the browser gets it. */
export interface AlertRow {
  id: string;
  ruleId: string;
  ruleName: string;
  ruleKind: RuleKind;
  subject: string;
  accountId: string | null;
  /** The account's number when the desk's directory knows it. */
  accountNumber: string | null;
  summary: string;
  movements: MovementRef[];
  orders: OrderRef[];
  details: Record<string, unknown> | null;
  occurredAt: string;
  raisedAt: string;
  status: AlertStatus;
  decidedAt: string | null;
  decidedBy: string | null;
  note: string | null;
}

/** A reviewer's decision: cleared or escalated, always with a note. */
export const alertDecisionSchema = z.object({
  alertId: z.string().regex(/^\d{1,18}$/, "Unknown alert"),
  decision: z.enum(["cleared", "escalated"]),
  note: z.string().trim().min(3, "Write a note for the record (at least 3 characters)").max(2000),
});
export type AlertDecisionValues = z.input<typeof alertDecisionSchema>;
