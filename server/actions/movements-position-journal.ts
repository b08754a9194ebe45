"use server";
import "server-only";
import { positionJournal } from "@/server/movements/position-journal";
import { movementAction } from "@/server/movements/action";
import { defineAction } from "@/server/action-kit/define-action";

/** A position journal (stock, or an option by OCC symbol), sent with the client_request_id its form made. */
export const createPositionJournalAction = defineAction(movementAction(positionJournal));
