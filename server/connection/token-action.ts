import "server-only";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { ConnectionStatus } from "@/server/broker";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * One audited admin action over the upstream token (the connection-*.ts actions); an upstream failure becomes a
 * failed result with its code and the upstream request id.
 */
export function tokenAction(name: string, call: (actorEmail: string) => Promise<ConnectionStatus>) {
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
        throw new AppError(e.errorCode, e.userMessage, e.userMessage, undefined, { requestId: e.requestId });
      }
      return status;
    },
  });
}
