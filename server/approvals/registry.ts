import "server-only";
import { accountUpdate } from "@/server/accounts/update";
import { bulkJournals } from "@/server/bulk-journals/operation";
import { MOVEMENT_OPERATIONS } from "@/server/movements";
import type { ApprovableOperation } from "./operation";

/**
 * Every operation an approval rule can hold, by its action name. The approval policy refuses an operation that is
 * not listed here (its held requests could not be executed), so adding an action to the approvals is one line:
 * an entry of `MOVEMENT_OPERATIONS` (`server/movements/index.ts`) for a movement (`defineMovement`), or an ApprovableOperation of its own.
 */
const OPERATIONS: ApprovableOperation[] = [...MOVEMENT_OPERATIONS, bulkJournals, accountUpdate];

const byAction = new Map(OPERATIONS.map((op) => [op.action, op]));

export function approvableOperation(action: string): ApprovableOperation | undefined {
  return byAction.get(action);
}
