"use server";
import "server-only";
import { withdrawApproval } from "@/server/approvals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** The maker takes back their own pending request (server/approvals/actions.ts). */
export const withdrawApprovalAction = defineAction(withdrawApproval);
