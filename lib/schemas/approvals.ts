import { z } from "zod";
import { ROLE_LABELS } from "@/lib/auth/permissions";
import { roleKeySchema } from "./roles";
import { CURRENCIES } from "@/lib/broker-enums";
import { listParams, type StateOf } from "@/lib/list-params";
import { DECIMAL_PATTERN, decimalSign } from "@/lib/money";

/**
 * Four-eyes approvals: the rule keys an admin can put a rule on, the rule form, the decisions, and the inbox's URL
 * state and rows. A rule key names an approvable action; instant funding has two (deposit and withdrawal, told
 * apart by the request's `type`), and an account update is held under the key of what it changes.
 */
export const APPROVAL_RULE_ACTIONS = {
  "movements.cash_journal": "Cash journal",
  "movements.position_journal": "Position journal",
  "movements.instant_funding.DEPOSIT": "Deposit (instant funding)",
  "movements.instant_funding.WITHDRAWAL": "Withdrawal (instant funding)",
  "movements.fx_request": "FX request",
  "movements.instant_exchange": "Instant exchange",
  "movements.bulk_journals": "Bulk journals (a CSV batch, always held)",
  "accounts.option_level_raise": "Option level raised to LV3 or LV4",
  "accounts.w8ben_change": "W-8BEN change",
} as const;
export type ApprovalRuleAction = keyof typeof APPROVAL_RULE_ACTIONS;
export const APPROVAL_RULE_ACTION_KEYS = Object.keys(APPROVAL_RULE_ACTIONS) as [ApprovalRuleAction, ...ApprovalRuleAction[]];

/** Rule keys whose requests carry no amount: a currency or threshold would never match, so the form offers none. */
export const NO_AMOUNT_RULE_ACTIONS: readonly string[] = [
  "movements.position_journal",
  "movements.bulk_journals",
  "accounts.option_level_raise",
  "accounts.w8ben_change",
];

export const APPROVAL_STATUSES = ["pending", "executing", "executed", "failed", "rejected", "withdrawn", "expired"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const APPROVAL_STATUS_LABELS: Record<ApprovalStatus, string> = {
  pending: "Pending",
  executing: "Executing",
  executed: "Executed",
  failed: "Failed",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
  expired: "Expired",
};
export const APPROVAL_STATUS_TONES = {
  pending: "amber",
  executing: "blue",
  executed: "green",
  failed: "red",
  rejected: "red",
  withdrawn: "slate",
  expired: "slate",
} as const;

/** The rules editor's form: one schema for create and edit (an id means edit). */
export const approvalRuleSchema = z
  .object({
    id: z.string().uuid().optional(),
    action: z.enum(APPROVAL_RULE_ACTION_KEYS, { message: "Choose the action" }),
    currency: z.union([z.enum(CURRENCIES), z.literal("")]).default(""),
    threshold: z.string().trim().max(32, "Enter an amount of at most 32 characters").default(""),
    approversRequired: z.coerce.number({ message: "Choose 1 to 3" }).int().min(1, "Choose 1 to 3").max(3, "Choose 1 to 3"),
    // Built-in or custom roles; that each exists and may decide is checked on the server (`approverRoleOptions`).
    approverRoles: z.array(roleKeySchema).min(1, "Choose at least one role").max(50),
    enabled: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.threshold !== "" && (!DECIMAL_PATTERN.test(v.threshold) || decimalSign(v.threshold) < 0)) {
      ctx.addIssue({ code: "custom", message: "Enter an amount such as 10000 or 10000.00, or leave it empty", path: ["threshold"] });
    }
    if (NO_AMOUNT_RULE_ACTIONS.includes(v.action) && (v.threshold !== "" || v.currency !== "")) {
      ctx.addIssue({ code: "custom", message: "This action has no amount: leave currency and threshold empty", path: ["threshold"] });
    }
  });
export type ApprovalRuleInput = z.output<typeof approvalRuleSchema>;
export type ApprovalRuleValues = z.input<typeof approvalRuleSchema>;

export const approvalRuleEnabledSchema = z.object({ id: z.string().uuid(), enabled: z.boolean() });

const approvalId = z.string().uuid("Not an approval request");
export const approveSchema = z.object({ id: approvalId });
export const rejectSchema = z.object({
  id: approvalId,
  reason: z.string({ message: "Give a reason" }).trim().min(3, "Give a reason").max(500),
});
export const withdrawSchema = z.object({ id: approvalId });
/** An admin asks the upstream now what became of an execution whose process stopped. */
export const checkExecutionSchema = z.object({ id: approvalId });

export interface ApprovalRuleRow {
  id: string;
  action: string;
  currency: string | null;
  threshold: string | null;
  approversRequired: number;
  approverRoles: string[];
  enabled: boolean;
  createdBy: string;
  updatedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the approve action answers: still waiting for more approvals, or the execution's outcome. */
export interface ApproveOutcome {
  status: ApprovalStatus;
  approvals: number;
  required: number;
  upstreamRequestId?: string | null;
  error?: string | null;
}

export const approvalFilterSchema = z.object({
  status: z.enum(APPROVAL_STATUSES).optional().catch(undefined),
  action: z.string().trim().max(100).optional().catch(undefined),
});
export type ApprovalFilter = z.infer<typeof approvalFilterSchema>;

/** The inbox's URL state: pending first, then newest (one order, no sort offered). */
export const approvalListParams = listParams({ filters: approvalFilterSchema.shape, sizes: [10, 25, 50, 100], defaultSize: 25 });
export type ApprovalListParams = StateOf<typeof approvalListParams>;

/** One page of the inbox, with the server's clock when it was read: ages and time left are shown against it. */
export interface ApprovalInboxPage {
  rows: ApprovalListRow[];
  nextCursor?: string;
  now: string;
}

export interface ApprovalListRow {
  id: string;
  action: string;
  ruleAction: string;
  summary: string;
  makerEmail: string;
  status: ApprovalStatus;
  approvals: number;
  approversRequired: number;
  createdAt: string;
  expiresAt: string;
}

export interface ApprovalDecisionRow {
  approverId: string;
  approverEmail: string;
  approverRole: string;
  decision: "approve" | "reject";
  reason: string | null;
  at: string;
}

/** A payload field that names an account by id (`account_id`, `from_account`, `to_account_id`, …). */
export const isAccountKey = (key: string) => /(^|[._])account(_id)?$/.test(key);

export interface ApprovalDetail extends ApprovalListRow {
  target: string;
  payload: Record<string, unknown>;
  clientRequestId: string | null;
  payloadHash: string;
  /** The numbers of the accounts the payload names by id, where the desk knows them. */
  accountNumbers: Record<string, string>;
  diff: unknown;
  currency: string | null;
  amount: string | null;
  approverRoles: string[];
  makerId: string;
  makerRole: string;
  decidedAt: string | null;
  executedAt: string | null;
  upstreamRequestId: string | null;
  result: unknown;
  error: string | null;
  /** An execution whose process stopped: since when the upstream is asked whether it got the request. */
  checkingSince: string | null;
  decisions: ApprovalDecisionRow[];
}

export const ruleActionLabel = (key: string) => (APPROVAL_RULE_ACTIONS as Record<string, string>)[key] ?? key;
/** A role in words: a built-in one's label, a custom one's key as words (its key is its name, hyphenated: `roleKeyOf`). */
export const roleLabel = (role: string) =>
  (ROLE_LABELS as Record<string, string>)[role] ?? (role.charAt(0).toUpperCase() + role.slice(1)).replaceAll("-", " ");
