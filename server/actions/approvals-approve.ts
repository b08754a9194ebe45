"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { approveSchema } from "@/lib/schemas/approvals";
import { approveRequest } from "@/server/approvals/decisions";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * Approves a held request; the last required approval executes it (once: the request is claimed atomically). The
 * maker, a second decision of the same person and a role the rule does not name are refused here, on the server.
 */
export const approveApprovalAction = defineAction({
  name: "approvals.approve",
  permission: "approvals:decide",
  input: approveSchema,
  async run({ id }, ctx) {
    const outcome = await approveRequest(id, ctx);
    revalidatePath("/approvals");
    return outcome;
  },
});
