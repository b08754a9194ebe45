"use server";
import "server-only";
import { retryBulkJournalRows } from "@/server/bulk-journals/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** Sends an approved batch's failed rows again, each with its same request id (server/bulk-journals/actions.ts). */
export const retryBulkJournalRowsAction = defineAction(retryBulkJournalRows);
