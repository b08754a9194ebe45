"use server";
import "server-only";
import { checkApprovalExecution } from "@/server/approvals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** An admin asks the upstream now about an execution whose process stopped (server/approvals/actions.ts). */
export const checkApprovalExecutionAction = defineAction(checkApprovalExecution);
