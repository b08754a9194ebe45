"use server";
import "server-only";
import { confirmSandboxToken } from "@/server/broker";
import { tokenAction } from "@/server/connection/token-action";

export const confirmSandboxTwoFactor = tokenAction("connection.confirm_sandbox_2fa", () => confirmSandboxToken());
