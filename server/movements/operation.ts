import "server-only";
import type { z } from "zod";
import { compareDecimal, formatMoney } from "@/lib/money";
import type { MovementRequestKind } from "@/lib/schemas/movements";
import type { ActionContext } from "@/server/action-kit/define-action";
import { toActionError, type UpstreamFieldMap } from "@/server/action-kit/upstream-error";
import { AppError } from "@/lib/errors";
import type { ApprovableOperation } from "@/server/approvals/operation";
import type { BrokerClient } from "@/server/broker/client";
import { isBrokerError } from "@/server/broker/errors";
import type { MovementKind } from "@/server/books/changes";
import { recordDeskMovement } from "@/server/books/desk";
import { DETAIL_CALL } from "@/server/books/snapshots";
import { logger } from "@/server/log";

/**
 * One kind of money movement as data: its schema (the upstream request body), what an approval rule compares
 * (currency and amount), the accounts it names, a readable summary, and `send`, which checks what can be checked
 * before sending (available cash, held quantity), sends the request with its own client_request_id and writes it to
 * the read model. `defineMovement` makes it the one kind of operation that can be held and sent
 * (ApprovableOperation): the action (`server/actions/movements.ts`) and an approval's execution both call `send`
 * with the very same request, so a request approved later is the one the maker made.
 */
export interface MovementSpec<S extends z.ZodType> {
  kind: MovementRequestKind;
  /** Audit action name, e.g. "movements.cash_journal". */
  action: string;
  schema: S;
  /** The amount and currency approval thresholds compare (a position journal has none). */
  money(request: z.output<S>): { currency: string; amount: string } | undefined;
  /**
   * The action an approval rule names when one kind covers two (instant funding: `movements.instant_funding.DEPOSIT`
   * or `.WITHDRAWAL`); absent means `action`.
   */
  approvalAction?(request: z.output<S>): string;
  /** The audit target, e.g. "account:ID". */
  target(request: z.output<S>): string;
  /** The accounts it names; the first is the one the upstream's detail call is asked with. */
  accounts(request: z.output<S>): string[];
  /** One line for people: "Cash journal of USD 5,000.00 from VBD1000001 to VBD1000030". */
  summary(request: z.output<S>): string;
  /**
   * What the desk checks before sending (available cash, held quantity, the quote's age); it throws the refusal. A
   * refused request the upstream already has is sent anyway (see `defineMovement`).
   */
  check?(request: z.output<S>, ctx: ActionContext): Promise<void>;
  /** Sends the request with its own client_request_id and writes it to the read model. */
  send(request: z.output<S>, ctx: ActionContext): Promise<MovementResult>;
}

export interface MovementOperation<S extends z.ZodType = z.ZodType> extends ApprovableOperation<S> {
  kind: MovementRequestKind;
  send(request: z.output<S>, ctx: ActionContext): Promise<MovementResult>;
}

const clientRequestIdOf = (r: unknown) => (r as { client_request_id: string }).client_request_id;

export function defineMovement<S extends z.ZodType>(spec: MovementSpec<S>): MovementOperation<S> {
  const kind = spec.kind as MovementKind;
  async function lookup(r: z.output<S>, client: BrokerClient): Promise<{ sent: true; status?: string } | { sent: false }> {
    const detail = client[DETAIL_CALL[kind]] as (i: { account_id: string; client_request_id: string }) => Promise<{ status?: string }>;
    try {
      const found = await detail({ account_id: spec.accounts(r)[0] ?? "", client_request_id: clientRequestIdOf(r) });
      return { sent: true, status: found.status };
    } catch (error) {
      // Unknown to the upstream: a 404, or a 417 whose code says so (the sandbox: REQUEST_NOT_FOUND).
      if (isBrokerError(error) && (error.status === 404 || /(^|_)NOT_FOUND$/.test(error.errorCode ?? ""))) return { sent: false };
      throw error;
    }
  }
  /**
   * The desk's checks, then the send. A repeat of a request whose answer was lost (the same client_request_id sent
   * again) is checked against balances its first send already used, and would be refused as if nothing had been
   * sent: when a check refuses, the upstream is asked whether it has the request, and if it has, the request goes
   * to it unchecked, so that it answers the first result (or refuses another body under the same id).
   */
  async function send(r: z.output<S>, ctx: ActionContext): Promise<MovementResult> {
    ctx.audit.target = spec.target(r);
    try {
      await spec.check?.(r, ctx);
    } catch (refusal) {
      const found = await lookup(r, ctx.broker).catch(() => undefined);
      if (!found?.sent) throw refusal;
    }
    return spec.send(r, ctx);
  }
  return {
    ...spec,
    summary: (r) => spec.summary(r),
    // One kind may answer to several rules (instant funding: a deposit or a withdrawal).
    assess: async (r) => ({ ruleKeys: [spec.approvalAction?.(r) ?? spec.action] }),
    clientRequestId: clientRequestIdOf,
    send,
    run: send,
    lookup,
    resultLink: (r) => ({
      href: `/movements/${spec.kind}/${encodeURIComponent(clientRequestIdOf(r))}`,
      label: `Movement ${clientRequestIdOf(r)}`,
    }),
    async onStatus(r, status, o) {
      // The request body carries the wire's field names, which the read model's movement fields are read from.
      const fields = Object.fromEntries(
        Object.entries(r as Record<string, unknown>)
          .filter(([, v]) => typeof v === "string")
          .map(([k, v]) => [k, v as string]),
      );
      const crid = clientRequestIdOf(r);
      try {
        await recordDeskMovement(o.ctx.db.engine, {
          kind,
          clientRequestId: crid,
          requestedBy: o.makerEmail,
          stage: `approval:${o.approvalId}:${status}`,
          fields: { ...fields, status, reason: o.reason },
        });
      } catch (error) {
        // The approval request holds the truth; the list catches up with the next record of this movement.
        logger.warn({ err: error, kind, clientRequestId: crid, status }, "desk movement record failed");
      }
    },
  };
}

/** What a sent movement returned: its status as the upstream answered (the events move it on). */
export interface MovementResult {
  kind: MovementRequestKind;
  client_request_id: string;
  status: string;
  reason?: string;
}

/** Refuses an amount above what the source can give, on the form's field, before anything is sent. */
export async function requireAvailableCash(
  ctx: ActionContext,
  accountId: string,
  currency: string,
  amount: string,
  field: string,
  what = "available cash",
): Promise<void> {
  const balance = await ctx.broker.getBalance({ account_id: accountId });
  const available = balance.account_currency_assets.find((a) => a.currency === currency)?.available_withdrawal ?? "0";
  if (compareDecimal(amount, available) > 0) {
    const message = `More than the ${what}: ${formatMoney(available, currency)}`;
    throw new AppError("INSUFFICIENT_CASH", message, message, { [field]: message });
  }
}

/** Sends one movement and records it in the read model; an upstream refusal lands on the form's fields. */
export async function sendMovement<R extends { client_request_id: string; status?: string; reason?: string }>(
  ctx: ActionContext,
  m: {
    kind: MovementRequestKind;
    clientRequestId: string;
    fields: Record<string, string | undefined>;
    fieldMap: UpstreamFieldMap;
    send: () => Promise<R>;
  },
): Promise<MovementResult> {
  let answer: R;
  try {
    answer = await m.send();
  } catch (error) {
    throw toActionError(error, { fields: m.fieldMap, idempotent: true });
  }
  const status = answer.status ?? "SUBMITTED";
  try {
    await recordDeskMovement(ctx.db.engine, {
      kind: m.kind,
      clientRequestId: m.clientRequestId,
      requestedBy: ctx.staff.email,
      // What the answer adds to what was sent (the upstream's id; an FX request's bought amount and rate when it
      // completed at once) is recorded too: no event brings those (a funding event carries the request's fields).
      fields: { ...answerFields(answer), ...m.fields, status, reason: answer.reason },
    });
  } catch (error) {
    // It was sent: the upstream's events bring it into the read model even if this write failed.
    logger.warn({ err: error, kind: m.kind, clientRequestId: m.clientRequestId }, "desk movement record failed");
  }
  return { kind: m.kind, client_request_id: m.clientRequestId, status, reason: answer.reason };
}

/** The answer's text fields, as the read model reads a detail call's (server/books/changes.ts). */
const answerFields = (answer: object): Record<string, string> =>
  Object.fromEntries(Object.entries(answer).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));

/** A field map for forms whose inputs carry the wire's own names. */
export const sameNames = (fields: readonly string[]): UpstreamFieldMap => ({ field: (path) => (fields.includes(path) ? path : undefined) });
