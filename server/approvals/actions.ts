import "server-only";
import { revalidatePath } from "next/cache";
import { approveSchema, rejectSchema } from "@/lib/schemas/approvals";
import type { ActionDefinition } from "@/server/action-kit/define-action";
import { approveRequest, rejectRequest } from "./decisions";

/** The checker's two decisions, each one definition that the pages' server action and the assistant channels' tool run. */

/**
 * Approves a held request; the last required approval executes it (once: the request is claimed atomically). The
 * maker, a second decision of the same person and a role the rule does not name are refused here, on the server.
 */
export const approveApproval = {
  name: "approvals.approve",
  permission: "approvals:decide",
  input: approveSchema,
  async run({ id }, ctx) {
    const outcome = await approveRequest(id, ctx);
    revalidatePath("/approvals");
    return outcome;
  },
} satisfies ActionDefinition<typeof approveSchema, unknown>;

/** Rejects a held request with a reason (required); it is closed and never sent. */
export const rejectApproval = {
  name: "approvals.reject",
  permission: "approvals:decide",
  input: rejectSchema,
  async run({ id, reason }, ctx) {
    const outcome = await rejectRequest(id, reason, ctx);
    revalidatePath("/approvals");
    return outcome;
  },
} satisfies ActionDefinition<typeof rejectSchema, unknown>;
