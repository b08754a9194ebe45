import "server-only";
import { z } from "zod";
import { isAppError, isNotFound } from "@/lib/errors";
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
 * Any failure as a safe JSON answer, never a stack: bad parameters 400, a domain not-found 404, an upstream answer
 * with its safe message and request id — 404 for the upstream's "not found" codes, 422 for another business refusal
 * (its 417: the request was understood and refused, nothing failed), 429 when rate limited (the caller waits), 502
 * when the upstream failed or could not be reached — another AppError 422 with its code and message, the rest 500
 * (logged).
 */
function upstreamStatus(e: { status: number; errorCode: string }): number {
  if (e.status === 429) return 429;
  if (e.errorCode.endsWith("NOT_FOUND")) return 404;
  if (e.status === 417 || e.status === 400 || e.status === 404 || e.status === 409 || e.status === 422) return 422;
  return 502;
}

export function errorResponse(e: unknown): Response {
  if (e instanceof z.ZodError) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of e.issues) fieldErrors[issue.path.join(".") || "_"] ??= issue.message;
    return errorJson(400, { error: "BAD_REQUEST", message: "The request's parameters are not valid.", fieldErrors });
  }
  if (isNotFound(e)) return errorJson(404, { error: "NOT_FOUND", message: e.userMessage });
  if (isBrokerError(e)) {
    return errorJson(upstreamStatus(e), { error: e.errorCode, message: e.userMessage, requestId: e.requestId });
  }
  // Refused on purpose by the desk's own rules, with a message meant for the person.
  if (isAppError(e)) return errorJson(422, { error: e.code, message: e.userMessage, requestId: e.requestId, fieldErrors: e.fieldErrors });
  logger.error({ err: e }, "route failed");
  return errorJson(500, { error: "INTERNAL", message: "Something went wrong. Try again." });
}

/** The audit error code of a failure (the same classes as errorResponse). */
export function errorCodeOf(e: unknown): string {
  if (e instanceof z.ZodError) return "BAD_REQUEST";
  return isAppError(e) ? e.code : "INTERNAL";
}
