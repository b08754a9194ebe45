import "server-only";
import type { MovementRequestKind } from "@/lib/schemas/movements";
import { cashJournal } from "./cash-journal";
import { fxRequest } from "./fx-request";
import { instantExchange } from "./instant-exchange";
import { instantFunding } from "./instant-funding";
import type { MovementOperation } from "./operation";
import { positionJournal } from "./position-journal";

/** Every movement operation, one a kind. */
export const MOVEMENT_OPERATIONS: MovementOperation[] = [cashJournal, positionJournal, instantFunding, fxRequest, instantExchange];

export function movementOperation(kind: MovementRequestKind | string): MovementOperation | undefined {
  return MOVEMENT_OPERATIONS.find((op) => op.kind === kind);
}
