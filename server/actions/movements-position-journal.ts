"use server";
import "server-only";
import { positionJournal } from "@/server/movements/position-journal";
import { approvalPolicy } from "@/server/approvals/policy";
import { defineAction } from "@/server/action-kit/define-action";

/** A position journal (stock, or an option by OCC symbol), sent with the client_request_id its form made. */
export const createPositionJournalAction = defineAction({
  name: positionJournal.action,
  permission: "movements:write",
  input: positionJournal.schema,
  approval: approvalPolicy(positionJournal),
  run: (request, ctx) => positionJournal.send(request, ctx),
});
