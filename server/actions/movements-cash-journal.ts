"use server";
import "server-only";
import { movementAction } from "@/server/movements/action";
import { cashJournal } from "@/server/movements/cash-journal";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * A cash journal, sent with the client_request_id its form made (a retry is the same journal). An approval rule on
 * cash journals holds it instead: the stored request is sent, with this same id, when it is approved.
 */
export const createCashJournalAction = defineAction(movementAction(cashJournal));
