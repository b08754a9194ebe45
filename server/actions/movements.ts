"use server";
import "server-only";
import { defineAction } from "@/server/action-kit/define-action";
import { retryBulkJournalRows, uploadBulkJournals } from "@/server/bulk-journals/actions";
import { movementAction } from "@/server/movements/action";
import { cashJournal } from "@/server/movements/cash-journal";
import { fxRequest } from "@/server/movements/fx-request";
import { instantExchange } from "@/server/movements/instant-exchange";
import { instantFunding } from "@/server/movements/instant-funding";
import { positionJournal } from "@/server/movements/position-journal";

/** Sends an approved batch's failed rows again, each with its same request id (server/bulk-journals/actions.ts). */
export const retryBulkJournalRowsAction = defineAction(retryBulkJournalRows);

/**
 * A CSV of cash or position journals: every row validated, then the batch held for four-eyes as one request
 * (server/bulk-journals/actions.ts); a bad row comes back as its `line:column` field error and nothing is held.
 */
export const uploadBulkJournalsAction = defineAction(uploadBulkJournals);

/**
 * A cash journal, sent with the client_request_id its form made (a retry is the same journal). An approval rule on
 * cash journals holds it instead: the stored request is sent, with this same id, when it is approved.
 */
export const createCashJournalAction = defineAction(movementAction(cashJournal));

/** An FX request at the master account, sent with the client_request_id its form made. */
export const createFxRequestAction = defineAction(movementAction(fxRequest));

/** An instant exchange at a virtual account for the quoted to_amount, sent with the client_request_id its form made. */
export const createInstantExchangeAction = defineAction(movementAction(instantExchange));

/** A deposit or withdrawal at a virtual account, sent with the client_request_id its form made. */
export const createInstantFundingAction = defineAction(movementAction(instantFunding));

/** A position journal (stock, or an option by OCC symbol), sent with the client_request_id its form made. */
export const createPositionJournalAction = defineAction(movementAction(positionJournal));
