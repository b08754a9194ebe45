"use server";
import "server-only";
import { approvalPolicy } from "@/server/approvals/policy";
import { cashJournal } from "@/server/movements/cash-journal";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * A cash journal, sent with the client_request_id its form made (a retry is the same journal). An approval rule on
 * cash journals holds it instead: the stored request is sent, with this same id, when it is approved.
 */
export const createCashJournalAction = defineAction({
  name: cashJournal.action,
  permission: "movements:write",
  input: cashJournal.schema,
  approval: approvalPolicy(cashJournal),
  run: (request, ctx) => cashJournal.send(request, ctx),
});
