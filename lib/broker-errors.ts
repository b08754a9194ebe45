/**
 * User-facing messages for Broker API error codes (facts sheet §6.1) and for the client's own failure codes.
 * No secrets and no server imports, so UI code can turn an error code it received into the same sentence.
 */
export type BrokerErrorKind = "auth" | "business" | "rate-limit" | "upstream" | "timeout" | "network" | "client" | "token";

const CREDENTIALS = "The connection to the broker is misconfigured (app key or signature). An administrator must check Admin → Connection.";

export const BROKER_ERROR_MESSAGES: Record<string, string> = {
  // 401: headers, signature, token
  MISSING_APP_KEY: CREDENTIALS,
  MISSING_SIGNATURE: CREDENTIALS,
  MISSING_ALGORITHM: CREDENTIALS,
  MISSING_NONCE: CREDENTIALS,
  MISSING_TIMESTAMP: CREDENTIALS,
  MISSING_VERSION: CREDENTIALS,
  UNAUTHORIZED: "The broker refused our credentials. An administrator must check the app key and secret under Admin → Connection.",
  INCORRECT_SIGN: CREDENTIALS,
  SIGNATURE_ALGORITHM_NOT_SUPPORTED:
    "The broker does not accept the configured signature algorithm. An administrator must change BROKER_SIGNATURE_ALGORITHM.",
  VERSION_NOT_SUPPORTED: "The broker does not support this API version. An administrator must check BROKER_PATH_STYLE.",
  UNSUPPORTED_API_VERSION: "The broker does not support this API version. An administrator must check BROKER_PATH_STYLE.",
  CLOCK_SKEW_EXCEEDED: "This server's clock differs too much from the broker's. An administrator must fix the server time.",
  ILLEAGAL_TIMESTAMP: "This server's clock differs too much from the broker's. An administrator must fix the server time.",
  INVALID_TOKEN:
    "The broker session token is missing, expired or invalid. An administrator must create a new one under Admin → Connection.",
  IP_NOT_ALLOWED: "The broker does not accept requests from this server's IP address.",
  ROUTE_NOT_PERMITTED: "Our app key is not permitted to use this broker function.",
  // 417 and other business rules
  ILLEGAL_PARAMETER: "The broker rejected a value in the request. Check the fields and try again.",
  INVALID_SYMBOL: "The broker does not know this symbol.",
  INSTRUMENT_NOT_FOUND: "The broker does not know this instrument.",
  UNSUPPORTED_CATEGORY: "The broker does not support this market or category.",
  TOO_MANY_SYMBOLS: "Too many symbols in one request.",
  OPENAPI_NO_NIGHT_TRADING_TIME: "Night orders cannot be placed at this time.",
  // 429
  TOO_MANY_REQUESTS: "The broker is limiting our requests. Try again in a moment.",
  REQUEST_TOTAL_COUNT_EXCEEDED: "Our request quota at the broker is used up. Try again later.",
  // 5xx
  SYSTEM_ERROR: "The broker had an internal error. Try again shortly.",
  INTERNAL_ERROR: "The broker had an internal error. Try again shortly.",
  SERVICE_NOT_AVAILABLE: "The broker is temporarily unavailable. Try again shortly.",
  GATEWAY_TIMEOUT: "The broker did not answer in time. Try again shortly.",
  // the client's own
  TIMEOUT: "The broker did not answer in time. Nothing is known about the outcome; check before retrying.",
  NETWORK_ERROR: "The broker could not be reached. Check the network and try again.",
  INVALID_RESPONSE: "The broker sent an answer we could not read. The problem has been logged.",
  INVALID_REQUEST: "The request is incomplete or has invalid values.",
  NO_TOKEN: "There is no broker session token. An administrator must create one under Admin → Connection and confirm it (2FA).",
  TOKEN_PENDING: "The broker session token is waiting for two-factor confirmation.",
  TOKEN_EXPIRED: "The broker session token expired. An administrator must create a new one under Admin → Connection.",
  TOKEN_INVALID: "The broker session token is no longer valid. An administrator must create a new one under Admin → Connection.",
  ABORTED: "The request was cancelled.",
  UNKNOWN_ERROR: "Something went wrong talking to the broker.",
};

export function brokerErrorKind(status: number, errorCode: string): BrokerErrorKind {
  if (errorCode === "TIMEOUT") return "timeout";
  if (errorCode === "NETWORK_ERROR") return "network";
  if (errorCode.startsWith("TOKEN_") || errorCode === "NO_TOKEN") return "token";
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate-limit";
  if (status >= 500) return "upstream";
  if (status === 0) return "client";
  return "business";
}

/**
 * The sentence to show a person. Unknown business (417) codes use the upstream's own message, which is written
 * for people (e.g. "The current period does not support placing night orders"); other unknown codes fall back
 * on the HTTP status.
 */
export function brokerUserMessage(status: number, errorCode: string, upstreamMessage?: string): string {
  const known = BROKER_ERROR_MESSAGES[errorCode];
  if (known) return known;
  if (status === 417 || status === 400 || status === 404 || status === 409 || status === 422) {
    return upstreamMessage ? `The broker rejected the request: ${upstreamMessage}` : "The broker rejected the request.";
  }
  if (status === 401 || status === 403) return BROKER_ERROR_MESSAGES.UNAUTHORIZED;
  if (status === 429) return BROKER_ERROR_MESSAGES.TOO_MANY_REQUESTS;
  if (status >= 500) return BROKER_ERROR_MESSAGES.SYSTEM_ERROR;
  return BROKER_ERROR_MESSAGES.UNKNOWN_ERROR;
}
