import "server-only";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import { bulkDecisionSchema, markDecisionsSeenSchema, type BulkDecisionResult } from "@/lib/schemas/approval-queue";
import { approveSchema, checkExecutionSchema, rejectSchema, withdrawSchema } from "@/lib/schemas/approvals";
import { runAction, type ActionContext, type ActionDefinition } from "@/server/action-kit/define-action";
import { approvedWords, decideEach } from "./bulk";
import { approveRequest, rejectRequest, withdrawRequest } from "./decisions";
import { markSeen } from "./queue";
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

/**
 * Approves or rejects several requests in one go (the inbox's selection; a rejection's one reason for all): each
 * request is decided on its own by the one-by-one definition above, with its own checks, execution and audit entry,
 * and the answer says what became of each.
 */
export const decideManyApprovals = decision(
  "approvals.decide_many",
  "approvals:decide",
  bulkDecisionSchema,
  async (input, ctx): Promise<{ results: BulkDecisionResult[] }> => {
    const caller = { staff: ctx.staff, meta: ctx.meta };
    const results =
      input.decision === "approve"
        ? await decideEach(input.ids, (id) => runAction(approveApproval, { id }, caller), approvedWords, "approve")
        : await decideEach(
            input.ids,
            (id) => runAction(rejectApproval, { id, reason: input.reason }, caller),
            () => ({ outcome: "rejected", message: "Rejected" }),
            "reject",
          );
    return { results };
  },
);

/**
 * The maker has opened the notice of their decided requests: those shown are marked seen (only their own, only
 * decided ones). Not an `approvals.` entry: nobody else's inbox changes.
 */
export const markDecisionsSeen: ActionDefinition<typeof markDecisionsSeenSchema, { marked: number }> = {
  name: "notices.decisions_seen",
  permission: "approvals:read",
  input: markDecisionsSeenSchema,
  run: async ({ ids }, ctx) => ({ marked: await markSeen(ctx.db, ctx.staff.id, ids) }),
};
