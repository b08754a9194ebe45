import "server-only";
import type { z } from "zod";
import { can, type Permission } from "@/lib/auth/permissions";
import { FORM_ERROR_KEY, type ActionResult, type PendingApproval } from "@/lib/errors";
import "@/lib/schemas/messages";
import { appendAudit } from "@/server/audit/trail";
import { ENROL_FIRST, mustEnrolFirst } from "@/server/auth/enrolment";
import { currentStaff, type Staff } from "@/server/auth/guard";
import { requestMeta } from "@/server/auth/request-meta";
import type { RequestMeta } from "@/server/auth/staff";
import { getDb } from "@/server/db";
import { actionContext, performAudited, type ActionContext, type Done } from "./perform";

export type { ActionContext } from "./perform";

/** An approval policy's verdict: run the work now, or hold it until a second person approves the request it made. */
export type ApprovalDecision = { status: "proceed" } | { status: "held"; approvalId: string; message: string };

export type ApprovalPolicy<I> = (input: I, ctx: ActionContext) => Promise<ApprovalDecision>;

export interface ActionDefinition<S extends z.ZodType, T> {
  /** Audit action name, e.g. "staff.create". */
  name: string;
  permission: Permission;
  /**
   * "optional": open to a staff member whose role requires two-factor sign-in and who has not enrolled yet (the
   * enrolment's own steps on Settings → Security). Every other action refuses them with ENROL_FIRST.
   */
  enrolment?: "optional";
  input: S;
  /** Between parse and work: may hold the action for approval (the work does not run; the result is pending). */
  approval?: ApprovalPolicy<z.output<S>>;
  run(input: z.output<S>, ctx: ActionContext): Promise<T>;
}

type Action<S extends z.ZodType, T> = (raw: z.input<S>) => Promise<ActionResult<T>>;

/** Dotted field paths, as react-hook-form names nested fields. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || FORM_ERROR_KEY;
    out[key] ??= issue.message;
  }
  return out;
}

/** Who an action runs for, and how the call reached the desk (the pages, or an assistant channel with a token). */
export interface Caller {
  staff: Staff;
  meta: RequestMeta;
}

/**
 * Every mutating server action goes through here: session → enrolment (ENROL_FIRST, audited as denied, while the
 * role requires two-factor sign-in and the staff member has not enrolled; not for `enrolment: "optional"`) →
 * permission → zod input parsed on the server → approval policy (when given) → the work → one audit entry, whatever
 * the outcome. Returns data, never throws to the browser (but lets redirect() and notFound() through). An action
 * with a policy may return PendingApproval.
 */
export function defineAction<S extends z.ZodType, T>(
  def: ActionDefinition<S, T> & { approval: ApprovalPolicy<z.output<S>> },
): Action<S, T | PendingApproval>;
export function defineAction<S extends z.ZodType, T>(def: ActionDefinition<S, T>): Action<S, T>;
export function defineAction<S extends z.ZodType, T>(def: ActionDefinition<S, T>): Action<S, T | PendingApproval> {
  return async function action(raw: z.input<S>): Promise<ActionResult<T | PendingApproval>> {
    const staff = await currentStaff();
    if (!staff) return { ok: false, code: "UNAUTHENTICATED", serverError: "Your session has ended. Sign in again." };
    const caller = { staff, meta: await requestMeta() };
    if (def.enrolment !== "optional" && (await mustEnrolFirst(staff))) return refuseUntilEnrolled(def, raw, caller);
    return runAction(def, raw, caller);
  };
}

/** The refusal of an action to a staff member who must enrol first, audited as denied. */
async function refuseUntilEnrolled(def: { name: string }, raw: unknown, { staff, meta }: Caller): Promise<ActionResult<never>> {
  await appendAudit(await getDb(), {
    actorId: staff.id,
    actorEmail: staff.email,
    actorRole: staff.role,
    action: def.name,
    ...meta,
    input: raw,
    outcome: "denied",
    errorCode: ENROL_FIRST.code,
  });
  return { ok: false, code: ENROL_FIRST.code, serverError: ENROL_FIRST.message };
}

/**
 * One action for one caller, the steps after the session: the pages' server actions and the assistant channels'
 * tools (a token's owner as the caller, the channel in the meta) both run an action through here.
 */
export async function runAction<S extends z.ZodType, T>(
  def: ActionDefinition<S, T>,
  raw: unknown,
  { staff, meta }: Caller,
): Promise<ActionResult<T | PendingApproval>> {
  const db = await getDb();
  const base = { actorId: staff.id, actorEmail: staff.email, actorRole: staff.role, action: def.name, ...meta };

  if (!can(staff, def.permission)) {
    await appendAudit(db, { ...base, input: raw, outcome: "denied", errorCode: "FORBIDDEN" });
    return { ok: false, code: "FORBIDDEN", serverError: "You do not have permission to do this." };
  }
  const parsed = def.input.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    await appendAudit(db, { ...base, input: raw, outcome: "failure", errorCode: "VALIDATION" });
    return { ok: false, code: "VALIDATION", serverError: "Check the highlighted fields.", fieldErrors };
  }

  const ctx = actionContext(staff, db, meta);
  const performed = await performAudited<T | PendingApproval>(ctx, {
    action: def.name,
    input: () => parsed.data,
    async work(): Promise<Done<T | PendingApproval>> {
      const decision = def.approval ? await def.approval(parsed.data, ctx) : { status: "proceed" as const };
      if (decision.status === "proceed") return { data: await def.run(parsed.data, ctx) };
      // The approval request is what this call made: the entry points at it; the input says what is to be done.
      const { approvalId, message } = decision;
      return { data: { pending: true as const, approvalId, message }, outcome: "held", target: `approval:${approvalId}` };
    },
  });
  return performed.ok
    ? { ok: true, data: performed.data }
    : { ok: false, code: performed.code, serverError: performed.userMessage, fieldErrors: performed.fieldErrors };
}
