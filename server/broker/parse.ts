import "server-only";
import type { z } from "zod";
import { BrokerError } from "./errors";

/** zod at the two edges: a bad request never leaves, a bad response never enters (both become BrokerError). */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, operation: string): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const detail = r.error.issues.map((i) => `${i.path.join(".") || "(input)"}: ${i.message}`).join("; ");
  throw new BrokerError({ status: 0, errorCode: "INVALID_REQUEST", message: `${operation}: ${detail}`, operation });
}

export function parseResponse<S extends z.ZodType>(schema: S, data: unknown, operation: string, requestId?: string): z.output<S> {
  let r = schema.safeParse(data);
  // A resource-style upstream may wrap a single record in {"data": …}; accept it without a per-operation rule.
  if (!r.success && data && typeof data === "object" && !Array.isArray(data) && "data" in data) {
    r = schema.safeParse((data as { data: unknown }).data);
  }
  if (r.success) return r.data;
  // Field paths only, never values: a response may carry personal data.
  const detail = leafIssues(r.error.issues)
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.code}`)
    .join("; ");
  throw new BrokerError({
    status: 200,
    errorCode: "INVALID_RESPONSE",
    message: `${operation}: unexpected response (${detail})`,
    operation,
    requestId,
  });
}

type Issue = z.core.$ZodIssue;
/** A union failure says only "invalid_union"; its first branch's issues say which field was wrong. */
function leafIssues(issues: readonly Issue[], prefix: PropertyKey[] = []): { path: PropertyKey[]; code: string }[] {
  return issues.flatMap((i) => {
    const path = [...prefix, ...i.path];
    if (i.code === "invalid_union" && i.errors.length > 0) return leafIssues(i.errors[0], path);
    return [{ path, code: i.code }];
  });
}
