"use server";
import "server-only";
import { refreshToken } from "@/server/broker";
import { tokenAction } from "@/server/connection/token-action";

export const refreshTokenNow = tokenAction("connection.refresh_token", () => refreshToken());
