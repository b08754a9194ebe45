"use server";
import "server-only";
import { cashJournal } from "@/server/movements/cash-journal";
import { defineAction } from "./safe-action";

/** A cash journal, sent with the client_request_id its form made (a retry is the same journal). */
export const createCashJournalAction = defineAction({
  name: cashJournal.action,
  permission: "movements:write",
  input: cashJournal.schema,
  run: (request, ctx) => cashJournal.send(request, ctx),
});
