"use server";
import "server-only";
import { rejectApproval } from "@/server/approvals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** Rejects a held request with a reason; it is closed and never sent (server/approvals/actions.ts). */
export const rejectApprovalAction = defineAction(rejectApproval);
