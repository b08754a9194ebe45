"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { checkToken, confirmSandboxToken, refreshToken, startNewToken, type ConnectionStatus } from "@/server/broker";
import { defineAction } from "./safe-action";

const noInput = z.object({}).strict();

/** Turns a connection status with an upstream error into a failed action (audited with its code). */
function settle(status: ConnectionStatus): ConnectionStatus {
  revalidatePath("/admin/connection");
  if (status.error) {
    const e = status.error;
    throw Object.assign(new AppError(e.errorCode, e.userMessage, e.userMessage), { requestId: e.requestId });
  }
  return status;
}

export const startToken = defineAction({
  name: "connection.start_token",
  permission: "connection:manage",
  input: noInput,
  async run(_input, { staff, audit }) {
    audit.target = "upstream:token";
    return settle(await startNewToken(staff.email));
  },
});

export const checkTokenNow = defineAction({
  name: "connection.check_token",
  permission: "connection:manage",
  input: noInput,
  async run(_input, { audit }) {
    audit.target = "upstream:token";
    return settle(await checkToken());
  },
});

export const refreshTokenNow = defineAction({
  name: "connection.refresh_token",
  permission: "connection:manage",
  input: noInput,
  async run(_input, { audit }) {
    audit.target = "upstream:token";
    return settle(await refreshToken());
  },
});

export const confirmSandboxTwoFactor = defineAction({
  name: "connection.confirm_sandbox_2fa",
  permission: "connection:manage",
  input: noInput,
  async run(_input, { audit }) {
    audit.target = "upstream:token";
    return settle(await confirmSandboxToken());
  },
});
