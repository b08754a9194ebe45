"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { rejectSchema } from "@/lib/schemas/approvals";
import { rejectRequest } from "@/server/approvals/decisions";
import { defineAction } from "@/server/action-kit/define-action";

/** Rejects a held request with a reason (required); it is closed and never sent. */
export const rejectApprovalAction = defineAction({
  name: "approvals.reject",
  permission: "approvals:decide",
  input: rejectSchema,
  async run({ id, reason }, ctx) {
    const outcome = await rejectRequest(id, reason, ctx);
    revalidatePath("/approvals");
    return outcome;
  },
});
