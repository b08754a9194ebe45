"use server";
import "server-only";
import { checkToken } from "@/server/broker";
import { tokenAction } from "@/server/connection/token-action";

export const checkTokenNow = tokenAction("connection.check_token", () => checkToken());
