import "server-only";
import { accountUpdate } from "@/server/accounts/update";
import { cashJournal } from "@/server/movements/cash-journal";
import { fxRequest } from "@/server/movements/fx-request";
import { instantExchange } from "@/server/movements/instant-exchange";
import { instantFunding } from "@/server/movements/instant-funding";
import { positionJournal } from "@/server/movements/position-journal";
import { movementApprovable, type ApprovableOperation } from "./operation";

/**
 * Every operation an approval rule can hold, by its action name. The approval policy refuses an operation that is
 * not listed here (its held requests could not be executed), so adding an action to the approvals is one line:
 * `movementApprovable(positionJournal),` for a movement operation, or an ApprovableOperation of its own.
 */
const OPERATIONS: ApprovableOperation[] = [
  movementApprovable(cashJournal),
  movementApprovable(positionJournal),
  movementApprovable(instantFunding),
  movementApprovable(fxRequest),
  movementApprovable(instantExchange),
  accountUpdate,
];

const byAction = new Map(OPERATIONS.map((op) => [op.action, op]));

export function approvableOperation(action: string): ApprovableOperation | undefined {
  return byAction.get(action);
}

/** For tests: an operation of their own (a fake upstream step), under its action name. */
export function registerApprovableForTests(op: ApprovableOperation): () => void {
  byAction.set(op.action, op);
  return () => byAction.delete(op.action);
}
