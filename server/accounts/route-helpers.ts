import "server-only";
import type { Permission } from "@/lib/auth/permissions";
import { guardRoute, type Staff } from "@/server/auth/guard";
import { isBrokerError } from "@/server/broker";
import { logger } from "@/server/log";

/** The JSON error body every accounts route handler answers with; the browser shows `message` as is. */
export interface ApiErrorBody {
  error: string;
  message: string;
  requestId?: string;
}

/** Upstream failures as a safe JSON answer: 404 for an unknown account, 502 for the rest (never a stack). */
export function errorResponse(e: unknown): Response {
  const error = isBrokerError(e) ? e : undefined;
  if (error) {
    const status = error.errorCode === "ACCOUNT_NOT_FOUND" ? 404 : error.status === 429 ? 429 : 502;
    const body: ApiErrorBody = { error: error.errorCode, message: error.userMessage, requestId: error.requestId };
    return Response.json(body, { status });
  }
  logger.error({ err: e }, "accounts route failed");
  return Response.json({ error: "INTERNAL", message: "Something went wrong. Try again." } satisfies ApiErrorBody, { status: 500 });
}

/** Permission check, then the work, then JSON (or the work's own Response); no caching of per-user data. */
export async function guardedJson(permission: Permission, work: (staff: Staff) => Promise<unknown>): Promise<Response> {
  const guard = await guardRoute(permission);
  if ("response" in guard) return guard.response;
  try {
    const result = await work(guard.staff);
    if (result instanceof Response) return result;
    return Response.json(result, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
