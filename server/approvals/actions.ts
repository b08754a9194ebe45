import "server-only";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import { approveSchema, checkExecutionSchema, rejectSchema, withdrawSchema } from "@/lib/schemas/approvals";
import type { ActionContext, ActionDefinition } from "@/server/action-kit/define-action";
import { approveRequest, rejectRequest, withdrawRequest } from "./decisions";
import { checkExecution } from "./recover";

/**
 * The decisions on a held request, each one definition that the pages' server action and the assistant channels'
 * tool run; the inbox is read again after each.
 */
function decision<S extends z.ZodType, T>(
  name: string,
  permission: Permission,
  input: S,
  decide: (input: z.output<S>, ctx: ActionContext) => Promise<T>,
): ActionDefinition<S, T> {
  return {
    name,
    permission,
    input,
    async run(values, ctx) {
      const outcome = await decide(values, ctx);
      revalidatePath("/approvals");
      return outcome;
    },
  };
}

/**
 * Approves a held request; the last required approval executes it (once: the request is claimed atomically). The
 * maker, a second decision of the same person and a role the rule does not name are refused here, on the server.
 */
export const approveApproval = decision("approvals.approve", "approvals:decide", approveSchema, ({ id }, ctx) => approveRequest(id, ctx));

/** Rejects a held request with a reason (required); it is closed and never sent. */
export const rejectApproval = decision("approvals.reject", "approvals:decide", rejectSchema, ({ id, reason }, ctx) =>
  rejectRequest(id, reason, ctx),
);

/** The maker takes back their own pending request; anyone else is refused. */
export const withdrawApproval = decision("approvals.withdraw", "approvals:read", withdrawSchema, ({ id }, ctx) => withdrawRequest(id, ctx));

/**
 * An admin's "Check the upstream now" on an execution whose process stopped (no beat for STUCK_AFTER_MS): what the
 * minute job would do for it, at once. Refused while the execution's process is alive.
 */
export const checkApprovalExecution = decision("approvals.check", "jobs:manage", checkExecutionSchema, ({ id }, ctx) =>
  checkExecution(id, ctx),
);
