"use server";
import "server-only";
import { uploadBulkJournals } from "@/server/bulk-journals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * A CSV of cash or position journals: every row validated, then the batch held for four-eyes as one request
 * (server/bulk-journals/actions.ts); a bad row comes back as its `line:column` field error and nothing is held.
 */
export const uploadBulkJournalsAction = defineAction(uploadBulkJournals);
