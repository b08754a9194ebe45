"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { withdrawSchema } from "@/lib/schemas/approvals";
import { withdrawRequest } from "@/server/approvals/decisions";
import { defineAction } from "@/server/action-kit/define-action";

/** The maker takes back their own pending request; anyone else is refused. */
export const withdrawApprovalAction = defineAction({
  name: "approvals.withdraw",
  permission: "approvals:read",
  input: withdrawSchema,
  async run({ id }, ctx) {
    const outcome = await withdrawRequest(id, ctx);
    revalidatePath("/approvals");
    return outcome;
  },
});
