import "server-only";
import type { z } from "zod";
import type { BrokerClient } from "@/server/broker/client";
import { isBrokerError } from "@/server/broker/errors";
import type { MovementKind } from "@/server/events/changes";
import { DETAIL_CALL } from "@/server/events/sync";
import { recordDeskMovement } from "@/server/events/desk";
import type { ActionContext } from "@/server/action-kit/define-action";
import type { MovementOperation } from "@/server/movements/operation";
import { logger } from "@/server/log";

/**
 * What the approvals engine needs of an action it may hold: how to name the rule that applies (`ruleKey`), what a
 * rule compares (money), what the request is about (target, summary, diff), and `run`, which does the action's
 * work with the stored request. The request an approver sees is the parsed input, stored as is; executing it parses
 * the stored payload with the same schema and runs it, so what is approved is what is sent.
 */
export interface ApprovableOperation<S extends z.ZodType = z.ZodType> {
  /** The action's audit name (the action that holds it and the execution's audit entry), e.g. movements.cash_journal. */
  action: string;
  schema: S;
  /**
   * The rule keys that concern this input (e.g. movements.instant_funding.DEPOSIT; an account update raising the
   * option level and changing the W-8BEN has two; none: no rule applies) and, for an update, its before → after.
   */
  assess(input: z.output<S>, ctx: ActionContext): Promise<{ ruleKeys: string[]; diff?: unknown }>;
  /**
   * Every rule key `assess` can name, when assessing costs something (an upstream read): with no enabled rule of
   * these keys the action proceeds without assessing.
   */
  possibleRuleKeys?: readonly string[];
  money(input: z.output<S>): { currency: string; amount: string } | undefined;
  target(input: z.output<S>): string;
  summary(input: z.output<S>, diff?: unknown): string;
  clientRequestId(input: z.output<S>): string | undefined;
  /**
   * Does the work. `held` is given when an approval executes a held request: what `assess` said then (its diff), for
   * an operation that must refuse when its target changed in between rather than overwrite the change.
   */
  run(input: z.output<S>, ctx: ActionContext, held?: { diff: unknown }): Promise<unknown>;
  /** The request was held (awaiting) or closed unsent (declined, withdrawn, expired), e.g. to show it in a list. */
  onStatus?(input: z.output<S>, status: HeldStatus, o: { approvalId: string; makerEmail: string; ctx: { db: ActionContext["db"] }; reason?: string }): Promise<void>;
  /**
   * Whether the upstream knows the request (by its own client request id), for settling an execution whose process
   * stopped before it wrote the outcome: never by sending again. Undefined: it cannot tell (nothing to look up by).
   */
  lookup?(input: z.output<S>, client: BrokerClient): Promise<{ sent: true; status?: string } | { sent: false }>;
  /** Where the executed request can be seen, e.g. /movements/CASH_JOURNAL/{client_request_id}, and the link's words. */
  resultLink?(input: z.output<S>): { href: string; label: string } | undefined;
}

export type HeldStatus = "AWAITING_APPROVAL" | "DECLINED" | "WITHDRAWN" | "EXPIRED" | "FAILED";

/** A movement operation as an approvable one: its action name is its rule key (instant funding: plus its type). */
export function movementApprovable<S extends z.ZodType>(op: MovementOperation<S>): ApprovableOperation<S> {
  return {
    action: op.action,
    schema: op.schema,
    // One kind may answer to several rules (instant funding: a deposit or a withdrawal).
    assess: async (r) => ({ ruleKeys: [op.approvalAction?.(r) ?? op.action] }),
    money: (r) => op.money(r),
    target: (r) => op.target(r),
    summary: (r) => op.summary(r),
    clientRequestId: (r) => (r as { client_request_id?: string }).client_request_id,
    run: (r, ctx) => op.send(r, ctx),
    async lookup(r, client) {
      const body = r as { client_request_id: string; account_id?: string; from_account?: string };
      const detail = client[DETAIL_CALL[op.kind as MovementKind]] as (i: { account_id: string; client_request_id: string }) => Promise<{ status?: string }>;
      try {
        const found = await detail({ account_id: body.account_id ?? body.from_account ?? "", client_request_id: body.client_request_id });
        return { sent: true, status: found.status };
      } catch (error) {
        // Unknown to the upstream: a 404, or a 417 whose code says so (the sandbox: REQUEST_NOT_FOUND).
        if (isBrokerError(error) && (error.status === 404 || /(^|_)NOT_FOUND$/.test(error.errorCode ?? ""))) return { sent: false };
        throw error;
      }
    },
    resultLink: (r) => {
      const crid = (r as { client_request_id: string }).client_request_id;
      return { href: `/movements/${op.kind}/${encodeURIComponent(crid)}`, label: `Movement ${crid}` };
    },
    async onStatus(r, status, o) {
      // The request body carries the wire's field names, which the read model's movement fields are read from.
      const fields = Object.fromEntries(
        Object.entries(r as Record<string, unknown>).filter(([, v]) => typeof v === "string").map(([k, v]) => [k, v as string]),
      );
      const crid = (r as { client_request_id: string }).client_request_id;
      try {
        await recordDeskMovement(o.ctx.db.engine, {
          kind: op.kind as MovementKind, clientRequestId: crid, requestedBy: o.makerEmail, stage: `approval:${o.approvalId}:${status}`,
          fields: { ...fields, status, reason: o.reason },
        });
      } catch (error) {
        // The approval request holds the truth; the list catches up with the next record of this movement.
        logger.warn({ err: error, kind: op.kind, clientRequestId: crid, status }, "desk movement record failed");
      }
    },
  };
}
