"use server";
import "server-only";
import { markDecisionsSeen } from "@/server/approvals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** The maker has seen the decisions the header's notice listed (server/approvals/actions.ts). */
export const markDecisionsSeenAction = defineAction(markDecisionsSeen);
