import "server-only";
import { AppError } from "@/lib/errors";
import type { MovementRequestKind } from "@/lib/schemas/movements";
import type { ActionContext } from "@/server/action-kit/define-action";
import { getMasterAccount } from "@/server/accounts/master";
import { sameNames, sendMovement, type MovementResult } from "./operation";

/**
 * What the movements made at one account share (an FX request, made at the master account; an instant exchange or
 * an instant funding, made at a virtual account): the check, before sending, of which account it is, and the send.
 */

/** Whether the account (an id or a number) is the omnibus master account; false while the master account is unknown. */
async function isMasterAccount(account: string): Promise<boolean> {
  const master = await getMasterAccount();
  return !!master.accountId && (account === master.accountId || account === master.accountNumber);
}

const accountRefusal = (code: string, message: string) => new AppError(code, message, message, { account_id: message });

/** Refuses, on the form's account field, any account but the master account (every one while it is unknown). */
export async function requireMasterAccount(account: string, message: string): Promise<void> {
  if (!(await isMasterAccount(account))) throw accountRefusal("NOT_THE_MASTER_ACCOUNT", message);
}

/** Refuses, on the form's account field, the master account. */
export async function requireVirtualAccount(account: string, message: string): Promise<void> {
  if (await isMasterAccount(account)) throw accountRefusal("NOT_A_VIRTUAL_ACCOUNT", message);
}

/**
 * Sends the movement (sendMovement) with its client_request_id. Its form's inputs carry the wire's names: the
 * request's `fields` are what the read model records, and an upstream refusal of one lands on the input of that name.
 */
export function sendAccountMovement<
  F extends string,
  R extends { client_request_id: string } & Record<F, string | undefined>,
  A extends { client_request_id: string; status?: string; reason?: string },
>(ctx: ActionContext, kind: MovementRequestKind, request: R, fields: readonly F[], send: () => Promise<A>): Promise<MovementResult> {
  return sendMovement(ctx, {
    kind,
    clientRequestId: request.client_request_id,
    fields: Object.fromEntries(fields.map((f) => [f, request[f]])),
    fieldMap: sameNames(fields),
    send,
  });
}
