import "server-only";
import type { z } from "zod";
import type { ActionDefinition, ApprovalPolicy } from "@/server/action-kit/define-action";
import { approvalPolicy } from "@/server/approvals/policy";
import type { MovementOperation, MovementResult } from "./operation";

/**
 * A movement's action: its audit name and schema, held when an approval rule applies, else sent with the
 * client_request_id its caller made (a retry is the same movement). The pages' server action and the assistant
 * channels' tool are this one definition.
 */
export function movementAction<S extends z.ZodType>(
  op: MovementOperation<S>,
): ActionDefinition<S, MovementResult> & { approval: ApprovalPolicy<z.output<S>> } {
  return {
    name: op.action,
    permission: "movements:write",
    input: op.schema,
    approval: approvalPolicy(op),
    run: (r, ctx) => op.send(r, ctx),
  };
}
