import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { can, type Permission } from "@/lib/auth/permissions";
import { FORM_ERROR_KEY, isAppError, type ActionResult, type PendingApproval } from "@/lib/errors";
import "@/lib/schemas/messages";
import { appendAudit } from "@/server/audit/trail";
import { currentStaff, type Staff } from "@/server/auth/guard";
import { requestMeta } from "@/server/auth/request-meta";
import type { RequestMeta } from "@/server/auth/staff";
import { broker, type BrokerClient } from "@/server/broker";
import { getDb, type AppDb } from "@/server/db";
import { logger } from "@/server/log";
import { recordingBroker, type UpstreamNotes } from "@/server/action-kit/recording-broker";
import { toActionError } from "@/server/action-kit/upstream-error";

/** What an action's work can tell the audit entry beyond its input (ctx.broker fills in the upstream part). */
export interface AuditNotes extends UpstreamNotes {
  target?: string;
}

export interface ActionContext {
  staff: Staff;
  db: AppDb;
  meta: RequestMeta;
  audit: AuditNotes;
  /** The Broker client for this action's upstream calls: their request ids and idempotency key reach the audit entry. */
  broker: BrokerClient;
}

/** An approval policy's verdict: run the work now, or hold it until a second person approves the request it made. */
export type ApprovalDecision = { status: "proceed" } | { status: "held"; approvalId: string; message: string };

export type ApprovalPolicy<I> = (input: I, ctx: ActionContext) => Promise<ApprovalDecision>;

export interface ActionDefinition<S extends z.ZodType, T> {
  /** Audit action name, e.g. "staff.create". */
  name: string;
  permission: Permission;
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


/**
 * Every mutating server action goes through here: session → permission → zod input parsed on the server →
 * approval policy (when given) → the work → one audit entry, whatever the outcome. Returns data, never throws to
 * the browser (but lets redirect() and notFound() through). An action with a policy may return PendingApproval.
 */
export function defineAction<S extends z.ZodType, T>(def: ActionDefinition<S, T> & { approval: ApprovalPolicy<z.output<S>> }): Action<S, T | PendingApproval>;
export function defineAction<S extends z.ZodType, T>(def: ActionDefinition<S, T>): Action<S, T>;
export function defineAction<S extends z.ZodType, T>(def: ActionDefinition<S, T>): Action<S, T | PendingApproval> {
  return async function action(raw: z.input<S>): Promise<ActionResult<T | PendingApproval>> {
    const staff = await currentStaff();
    if (!staff) return { ok: false, code: "UNAUTHENTICATED", serverError: "Your session has ended. Sign in again." };
    const [db, meta] = await Promise.all([getDb(), requestMeta()]);
    const base = { actorId: staff.id, actorEmail: staff.email, actorRole: staff.role, action: def.name, ...meta };

    if (!can(staff.role, def.permission)) {
      await appendAudit(db, { ...base, input: raw, outcome: "denied", errorCode: "FORBIDDEN" });
      return { ok: false, code: "FORBIDDEN", serverError: "You do not have permission to do this." };
    }
    const parsed = def.input.safeParse(raw);
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error);
      await appendAudit(db, { ...base, input: raw, outcome: "failure", errorCode: "VALIDATION" });
      return { ok: false, code: "VALIDATION", serverError: "Check the highlighted fields.", fieldErrors };
    }

    const notes: AuditNotes = {};
    let client: BrokerClient | undefined;
    const ctx: ActionContext = {
      staff, db, meta, audit: notes,
      get broker() {
        return (client ??= recordingBroker(broker(), notes));
      },
    };
    const started = performance.now();
    try {
      const decision = def.approval ? await def.approval(parsed.data, ctx) : { status: "proceed" as const };
      if (decision.status === "held") {
        const { approvalId, message } = decision;
        // The approval request is what this call made: the entry points at it; the input says what is to be done.
        await appendAudit(db, { ...base, ...notes, target: `approval:${approvalId}`, input: parsed.data, outcome: "held" });
        logger.info({ action: def.name, actor: staff.email, outcome: "held", approvalId }, "action held for approval");
        return { ok: true, data: { pending: true, approvalId, message } };
      }
      const data = await def.run(parsed.data, ctx);
      await appendAudit(db, { ...base, ...notes, input: parsed.data, outcome: "success" });
      logger.info({ action: def.name, actor: staff.email, outcome: "success", durationMs: Math.round(performance.now() - started) }, "action");
      return { ok: true, data };
    } catch (error) {
      unstable_rethrow(error);
      const mapped = toActionError(error); // an upstream failure the work let through: its code and safe message
      const e = isAppError(mapped) ? mapped : undefined;
      const code = e?.code ?? "INTERNAL";
      const userMessage = e?.userMessage ?? "Something went wrong. Nothing was changed; try again.";
      const upstreamRequestId = notes.upstreamRequestId ?? e?.requestId;
      await appendAudit(db, { ...base, ...notes, upstreamRequestId, input: parsed.data, outcome: "failure", errorCode: code });
      logger[code === "INTERNAL" ? "error" : "warn"](
        { action: def.name, actor: staff.email, outcome: "failure", code, err: code === "INTERNAL" ? error : undefined },
        "action failed",
      );
      return { ok: false, code, serverError: userMessage, fieldErrors: e?.fieldErrors };
    }
  };
}
