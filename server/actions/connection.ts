"use server";
import "server-only";
import { checkToken, connectionStep, refreshToken, startNewToken } from "@/server/broker";
import { tokenAction } from "@/server/connection/token-action";
import { requireSandboxControl } from "@/server/sandbox-control";

export const checkTokenNow = tokenAction("connection.check_token", () => checkToken());

/** Sandbox only: confirms the pending token as the account holder would (the 2FA step), then reads its state. */
export const confirmSandboxTwoFactor = tokenAction("connection.confirm_sandbox_2fa", () =>
  connectionStep(async (c) => {
    await requireSandboxControl("A real upstream's token is confirmed by the account holder, not from the desk.").confirmPendingToken();
    return c.tokens.check();
  }),
);

export const refreshTokenNow = tokenAction("connection.refresh_token", () => refreshToken());

export const startToken = tokenAction("connection.start_token", (actor) => startNewToken(actor));
