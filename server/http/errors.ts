import "server-only";
import { z } from "zod";
import { isNotFound } from "@/lib/errors";
import { isBrokerError } from "@/server/broker";
import { logger } from "@/server/log";

/** The JSON error body every route handler answers with; the browser shows `message` as is. */
export interface ApiErrorBody {
  error: string;
  message: string;
  requestId?: string;
  /** Bad parameters: the first problem of each, by name. */
  fieldErrors?: Record<string, string>;
}

export function errorJson(status: number, body: ApiErrorBody): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}

/**
 * Any failure as a safe JSON answer, never a stack: bad parameters 400, a domain not-found 404, an upstream
 * failure 429 (rate limited, so the caller waits) or 502 with the upstream's safe message and request id, the rest
 * 500 (logged).
 */
export function errorResponse(e: unknown): Response {
  if (e instanceof z.ZodError) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of e.issues) fieldErrors[issue.path.join(".") || "_"] ??= issue.message;
    return errorJson(400, { error: "BAD_REQUEST", message: "The request's parameters are not valid.", fieldErrors });
  }
  if (isNotFound(e)) return errorJson(404, { error: "NOT_FOUND", message: e.userMessage });
  if (isBrokerError(e)) {
    return errorJson(e.status === 429 ? 429 : 502, { error: e.errorCode, message: e.userMessage, requestId: e.requestId });
  }
  logger.error({ err: e }, "route failed");
  return errorJson(500, { error: "INTERNAL", message: "Something went wrong. Try again." });
}

/** The audit error code of a failure (the same classes as errorResponse). */
export function errorCodeOf(e: unknown): string {
  if (e instanceof z.ZodError) return "BAD_REQUEST";
  if (isNotFound(e)) return "NOT_FOUND";
  return isBrokerError(e) ? e.errorCode : "INTERNAL";
}
