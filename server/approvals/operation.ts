import "server-only";
import type { z } from "zod";
import type { BrokerClient } from "@/server/broker/client";
import type { ActionContext } from "@/server/action-kit/define-action";

/**
 * The one interface of what can be held and sent (a money movement, an account update): what the approvals engine
 * needs of an action it may hold: how to name the rule that applies (`ruleKey`), what a
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
  /** The accounts the request names (a summary names them by number where the desk knows them). */
  accounts(input: z.output<S>): string[];
  summary(input: z.output<S>, diff?: unknown): string;
  clientRequestId(input: z.output<S>): string | undefined;
  /**
   * Does the work. `held` is given when an approval executes a held request: what `assess` said then (its diff), for
   * an operation that must refuse when its target changed in between rather than overwrite the change.
   */
  run(input: z.output<S>, ctx: ActionContext, held?: { diff: unknown }): Promise<unknown>;
  /** The request was held (awaiting) or closed unsent (declined, withdrawn, expired), e.g. to show it in a list. */
  onStatus?(
    input: z.output<S>,
    status: HeldStatus,
    o: { approvalId: string; makerEmail: string; ctx: { db: ActionContext["db"] }; reason?: string },
  ): Promise<void>;
  /**
   * Whether the upstream knows the request (by its own client request id), for settling an execution whose process
   * stopped before it wrote the outcome: never by sending again. Undefined: it cannot tell (nothing to look up by).
   */
  lookup?(input: z.output<S>, client: BrokerClient): Promise<{ sent: true; status?: string } | { sent: false }>;
  /** Where the executed request can be seen, e.g. /movements/CASH_JOURNAL/{client_request_id}, and the link's words. */
  resultLink?(input: z.output<S>): { href: string; label: string } | undefined;
}

export type HeldStatus = "AWAITING_APPROVAL" | "DECLINED" | "WITHDRAWN" | "EXPIRED" | "FAILED";
