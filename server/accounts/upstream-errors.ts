import "server-only";
import { AppError } from "@/lib/errors";
import { isBrokerError, type BrokerError } from "@/server/broker";

/**
 * Upstream rule violations (HTTP 417 `{error_code, message}`) turned into field errors on the form, so an
 * operator sees "above the master account's level" under the option level, not a generic failure.
 */
const CODE_FIELDS: Record<string, { field: string; message?: string }> = {
  OPTION_LEVEL_EXCEEDS_MASTER: { field: "option_level" },
  OPTION_LEVEL_REQUIRED: { field: "option_level", message: "Choose an option level: US options are granted" },
  DUPLICATE_EXTERNAL_ACCOUNT_NUMBER: { field: "external_account_number", message: "This external account number is already used" },
};

/** Wire paths the form has an input for (dotted, as react-hook-form names them). */
const FORM_FIELD = /^(external_account_number|account_type|trading_permissions|option_level|commission_code|w8ben_info\.(first_name|middle_name|last_name|treaty_country|tax_id|sign_date|(home|mail)_address\.(country|state|city|street_address|postal_code))|china_connect_investor_info\.(first_name|middle_name|last_name|id_type|id_number|country_of_issuance))$/;

export interface MappedError {
  fieldErrors?: Record<string, string>;
  userMessage: string;
}

/**
 * The field a 417 is about: a known error code, or the "path: message" form of ILLEGAL_PARAMETER (the sandbox
 * names the field first, e.g. "w8ben_info.last_name: Too small"). A missing W-8BEN member lands on that member.
 * `mailSameAsHome` moves mailing-address errors to the home address the operator actually typed.
 */
export function fieldErrorsFromUpstream(errorCode: string, message: string, opts: { mailSameAsHome?: boolean } = {}): Record<string, string> | undefined {
  const known = CODE_FIELDS[errorCode];
  if (known) return { [known.field]: known.message ?? message };
  // The client's own request check (INVALID_REQUEST) says "operation: path: message; path: message".
  const parts = errorCode === "INVALID_REQUEST" ? message.replace(/^\w+:\s*/, "").split("; ") : [message];
  const out: Record<string, string> = {};
  for (const part of parts) Object.assign(out, fieldErrorOf(part, opts));
  return Object.keys(out).length ? out : undefined;
}

function fieldErrorOf(message: string, opts: { mailSameAsHome?: boolean }): Record<string, string> | undefined {
  const m = /^([a-z_][a-z_0-9]*(?:\.[a-z_0-9]+)*)\s*:\s*(.+)$/i.exec(message);
  if (!m) return undefined;
  let path = m[1].replace(/\.\d+$/, ""); // trading_permissions.2 → trading_permissions
  if (opts.mailSameAsHome) path = path.replace("w8ben_info.mail_address.", "w8ben_info.home_address.");
  if (/^w8ben_info\.(home|mail)_address$/.test(path)) path = `${path}.street_address`;
  if (path === "w8ben_info" || path === "china_connect_investor_info") path = `${path}.first_name`;
  if (!FORM_FIELD.test(path)) return undefined;
  return { [path]: humanize(m[2]) };
}

function humanize(message: string): string {
  if (/invalid input: expected string, received undefined|required/i.test(message)) return "Required by the broker";
  if (/too small/i.test(message)) return "Required by the broker";
  return `The broker refused this value: ${message}`;
}

/** An action failure that carries the upstream request id into the audit entry. */
export class UpstreamActionError extends AppError {
  constructor(
    code: string,
    message: string,
    userMessage: string,
    fieldErrors: Record<string, string> | undefined,
    readonly requestId?: string,
  ) {
    super(code, message, userMessage, fieldErrors);
  }
}

/**
 * A BrokerError, recognised by shape rather than `instanceof`: the process-wide client (a globalThis singleton)
 * may have been built by another server bundle whose copy of the BrokerError class is not this one.
 */
export function asBrokerError(e: unknown): BrokerError | undefined {
  return isBrokerError(e) ? e : undefined;
}

/** Any error from an upstream call, as an action error: field errors for rule violations, the safe message otherwise. */
export function toActionError(error: unknown, opts: { mailSameAsHome?: boolean; idempotent?: boolean } = {}): unknown {
  const e = asBrokerError(error);
  if (!e) return error;
  const fieldErrors = e.kind === "business" || e.errorCode === "INVALID_REQUEST" ? fieldErrorsFromUpstream(e.errorCode, e.message, opts) : undefined;
  // A form that keeps its client_request_id can simply be sent again after a timeout or an outage.
  const retry = opts.idempotent && e.retryable ? " Submit again when ready: it is the same request, so it cannot be applied twice." : "";
  const userMessage = fieldErrors ? "The broker refused some values. Check the highlighted fields." : `${e.userMessage}${retry}`;
  return new UpstreamActionError(e.errorCode, e.message, userMessage, fieldErrors, e.requestId);
}
