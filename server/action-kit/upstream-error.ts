import "server-only";
import { AppError } from "@/lib/errors";
import { isBrokerError } from "@/server/broker";

/**
 * Upstream failures as action errors, for every form: the code, the safe user message and the upstream request id
 * (into the audit entry), and for rule violations (HTTP 417 `{error_code, message}`, or the client's own request
 * check) field errors on the form, through the form's own field map. The wrapper applies it to any BrokerError a
 * work lets through; a form with fields calls it itself with its map.
 */
export interface UpstreamFieldMap {
  /** Error codes that always concern one field, with a fixed message or the broker's own. */
  codes?: Record<string, { field: string; message?: string }>;
  /** The form field (dotted, as react-hook-form names it) of a wire path, or undefined when the form has no input for it. */
  field(path: string): string | undefined;
}

/**
 * The fields a 417 is about: a known error code, or the "path: message" form of ILLEGAL_PARAMETER (the sandbox
 * names the field first, e.g. "w8ben_info.last_name: Too small"); the client's own request check (INVALID_REQUEST)
 * says "operation: path: message; path: message".
 */
export function fieldErrorsFromUpstream(errorCode: string, message: string, map: UpstreamFieldMap): Record<string, string> | undefined {
  const known = map.codes?.[errorCode];
  if (known) return { [known.field]: known.message ?? message };
  const parts = errorCode === "INVALID_REQUEST" ? message.replace(/^\w+:\s*/, "").split("; ") : [message];
  const out: Record<string, string> = {};
  for (const part of parts) {
    const m = /^([a-z_][a-z_0-9]*(?:\.[a-z_0-9]+)*)\s*:\s*(.+)$/i.exec(part);
    const field = m ? map.field(m[1].replace(/\.\d+$/, "")) : undefined; // trading_permissions.2 → trading_permissions
    if (m && field) out[field] = humanize(m[2]);
  }
  return Object.keys(out).length ? out : undefined;
}

function humanize(message: string): string {
  if (/invalid input: expected string, received undefined|required|too small/i.test(message)) return "Required by the broker";
  return `The broker refused this value: ${message}`;
}

/**
 * Any error from an upstream call as an action error (anything else is returned as is). `idempotent`: the form
 * keeps its client_request_id, so after a timeout or an outage it can simply be sent again.
 */
export function toActionError(error: unknown, opts: { fields?: UpstreamFieldMap; idempotent?: boolean } = {}): unknown {
  if (!isBrokerError(error)) return error;
  const e = error;
  const ruleViolation = e.kind === "business" || e.errorCode === "INVALID_REQUEST";
  const fieldErrors = ruleViolation && opts.fields ? fieldErrorsFromUpstream(e.errorCode, e.message, opts.fields) : undefined;
  const retry = opts.idempotent && e.retryable ? " Submit again when ready: it is the same request, so it cannot be applied twice." : "";
  const userMessage = fieldErrors ? "The broker refused some values. Check the highlighted fields." : `${e.userMessage}${retry}`;
  return new AppError(e.errorCode, e.message, userMessage, fieldErrors, { requestId: e.requestId, cause: e });
}
