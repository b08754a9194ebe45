"use server";
import "server-only";
import { approveApproval } from "@/server/approvals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** Approves a held request; the last required approval executes it once (server/approvals/actions.ts). */
export const approveApprovalAction = defineAction(approveApproval);
