import "server-only";
import { unstable_rethrow } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { type AuditOutcome } from "@/server/audit/entry";
import { appendAudit } from "@/server/audit/trail";
import type { Staff } from "@/server/auth/guard";
import type { RequestMeta } from "@/server/auth/staff";
import { broker, type BrokerClient } from "@/server/broker";
import type { AppDb } from "@/server/db";
import { logger } from "@/server/log";
import { recordingBroker, type UpstreamNotes } from "./recording-broker";
import { toActionError } from "./upstream-error";

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

/** A context for work done on `staff`'s behalf: its broker records each upstream request id and idempotency key into `audit`. */
export function actionContext(staff: Staff, db: AppDb, meta: RequestMeta): ActionContext {
  const notes: AuditNotes = {};
  let client: BrokerClient | undefined;
  return {
    staff,
    db,
    meta,
    audit: notes,
    get broker() {
      return (client ??= recordingBroker(broker(), notes));
    },
  };
}

/** The work's own word on how it ended, when not plainly "success" (held for approval: its own outcome and target). */
export interface Done<T> {
  data: T;
  outcome?: AuditOutcome;
  target?: string;
}

export type Performed<T> =
  | { ok: true; data: T; upstreamRequestId?: string }
  | { ok: false; code: string; userMessage: string; fieldErrors?: Record<string, string>; upstreamRequestId?: string; error: unknown };

/**
 * The steps every piece of audited work goes through, a direct action and a held request's execution alike: the
 * work with its context, an upstream failure it lets through mapped to an app error (anything else is INTERNAL with
 * a safe message), one audit entry whatever the outcome (the actor, the input, the upstream request id and
 * idempotency key the context's broker recorded), one log line. redirect() and notFound() pass through.
 */
export async function performAudited<T>(
  ctx: ActionContext,
  o: {
    /** Audit and log name, e.g. "movements.cash_journal". */
    action: string;
    /** Who the audit entry names (the approver who completed a request; else the context's staff). */
    actor?: Staff;
    /** The audited input, given the upstream request id when there is one. */
    input: (upstreamRequestId: string | undefined) => unknown;
    /** The audit target when the work names none. */
    target?: string;
    /** The safe message of an unexpected failure. */
    failureMessage?: string;
    log?: Record<string, unknown>;
    work: () => Promise<Done<T>>;
  },
): Promise<Performed<T>> {
  const actor = o.actor ?? ctx.staff;
  const base = { actorId: actor.id, actorEmail: actor.email, actorRole: actor.role, action: o.action, ...ctx.meta };
  const notes = ctx.audit;
  const log = { action: o.action, actor: actor.email, ...o.log };
  const started = performance.now();
  try {
    const done = await o.work();
    const upstreamRequestId = notes.upstreamRequestId;
    const outcome = done.outcome ?? "success";
    await appendAudit(ctx.db, {
      ...base,
      ...notes,
      target: done.target ?? notes.target ?? o.target,
      input: o.input(upstreamRequestId),
      outcome,
    });
    logger.info({ ...log, outcome, durationMs: Math.round(performance.now() - started) }, "action");
    return { ok: true, data: done.data, upstreamRequestId };
  } catch (error) {
    unstable_rethrow(error);
    const mapped = toActionError(error);
    const e = isAppError(mapped) ? mapped : undefined;
    const code = e?.code ?? "INTERNAL";
    const userMessage = e?.userMessage ?? o.failureMessage ?? "Something went wrong. Nothing was changed; try again.";
    const upstreamRequestId = notes.upstreamRequestId ?? e?.requestId;
    await appendAudit(ctx.db, {
      ...base,
      ...notes,
      upstreamRequestId,
      target: notes.target ?? o.target,
      input: o.input(upstreamRequestId),
      outcome: "failure",
      errorCode: code,
    });
    logger[code === "INTERNAL" ? "error" : "warn"](
      { ...log, outcome: "failure", code, err: code === "INTERNAL" ? error : undefined },
      "action failed",
    );
    return { ok: false, code, userMessage, fieldErrors: e?.fieldErrors, upstreamRequestId, error };
  }
}
