"use server";
import "server-only";
import { decideManyApprovals } from "@/server/approvals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** Approves or rejects the inbox's selected requests, each on its own (server/approvals/actions.ts). */
export const decideManyApprovalsAction = defineAction(decideManyApprovals);
