import "server-only";
import type { z } from "zod";
import { compareDecimal, formatMoney } from "@/lib/money";
import type { MovementRequestKind } from "@/lib/schemas/movements";
import type { ActionContext } from "@/server/action-kit/define-action";
import { toActionError, type UpstreamFieldMap } from "@/server/action-kit/upstream-error";
import { AppError } from "@/lib/errors";
import { recordDeskMovement } from "@/server/events/desk";
import { logger } from "@/server/log";

/**
 * One kind of money movement as data: its schema (the upstream request body), what an approval rule compares
 * (currency and amount), a readable summary, and `send`, which checks what can be checked before sending
 * (available cash, held quantity), sends the request with its own client_request_id and writes it to the read
 * model. The action (`server/actions/movements-*.ts`) and an approval's execution both call `send` with the very
 * same request, so a request approved later is the one the maker made.
 */
export interface MovementOperation<S extends z.ZodType = z.ZodType> {
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
  /** One line for people: "Cash journal of USD 5,000.00 from VBD1000001 to VBD1000030". */
  summary(request: z.output<S>): string;
  send(request: z.output<S>, ctx: ActionContext): Promise<MovementResult>;
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
  ctx: ActionContext, accountId: string, currency: string, amount: string, field: string, what = "available cash",
): Promise<void> {
  const balance = await ctx.broker.getBalance({ account_id: accountId });
  const available = balance.account_currency_assets.find((a) => a.currency === currency)?.available_withdrawal ?? "0";
  if (compareDecimal(amount, available) > 0) {
    const message = `More than the ${what}: ${formatMoney(available, currency)} ${currency}`;
    throw new AppError("INSUFFICIENT_CASH", message, message, { [field]: message });
  }
}

/** Sends one movement and records it in the read model; an upstream refusal lands on the form's fields. */
export async function sendMovement<R extends { client_request_id: string; status?: string; reason?: string }>(
  ctx: ActionContext,
  m: { kind: MovementRequestKind; clientRequestId: string; fields: Record<string, string | undefined>; fieldMap: UpstreamFieldMap; send: () => Promise<R> },
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
      kind: m.kind, clientRequestId: m.clientRequestId, requestedBy: ctx.staff.email,
      fields: { ...m.fields, status, reason: answer.reason },
    });
  } catch (error) {
    // It was sent: the upstream's events bring it into the read model even if this write failed.
    logger.warn({ err: error, kind: m.kind, clientRequestId: m.clientRequestId }, "desk movement record failed");
  }
  return { kind: m.kind, client_request_id: m.clientRequestId, status, reason: answer.reason };
}

/** A field map for forms whose inputs carry the wire's own names. */
export const sameNames = (fields: readonly string[]): UpstreamFieldMap => ({ field: (path) => (fields.includes(path) ? path : undefined) });
