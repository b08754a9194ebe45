"use server";
import "server-only";
import { startNewToken } from "@/server/broker";
import { tokenAction } from "@/server/connection/token-action";

export const startToken = tokenAction("connection.start_token", (actor) => startNewToken(actor));
