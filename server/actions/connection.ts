"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { checkToken, confirmSandboxToken, refreshToken, startNewToken, type ConnectionStatus } from "@/server/broker";
import { defineAction } from "./safe-action";

/** One audited admin action over the upstream token; an upstream failure becomes a failed result with its code. */
function tokenAction(name: string, call: (actorEmail: string) => Promise<ConnectionStatus>) {
  return defineAction({
    name,
    permission: "connection:manage",
    input: z.object({}).strict(),
    async run(_input, { staff, audit }) {
      audit.target = "upstream:token";
      const status = await call(staff.email);
      revalidatePath("/admin/connection");
      if (status.error) {
        const e = status.error;
        throw Object.assign(new AppError(e.errorCode, e.userMessage, e.userMessage), { requestId: e.requestId });
      }
      return status;
    },
  });
}

export const startToken = tokenAction("connection.start_token", (actor) => startNewToken(actor));
export const checkTokenNow = tokenAction("connection.check_token", () => checkToken());
export const refreshTokenNow = tokenAction("connection.refresh_token", () => refreshToken());
export const confirmSandboxTwoFactor = tokenAction("connection.confirm_sandbox_2fa", () => confirmSandboxToken());
