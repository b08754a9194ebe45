/**
 * What the Admin → Connection page is told about the upstream and its token: plain types, built by
 * `server/broker` (token manager, `tokenStatus()` and friends) and shown by `components/connection`. Nothing here
 * carries the secret or the token itself.
 */
export const TOKEN_STATES = ["NONE", "PENDING", "NORMAL", "EXPIRED", "INVALID", "UNKNOWN", "NOT_REQUIRED"] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

export interface TokenStatus {
  state: TokenState;
  /** The upstream's status string as stored (kept raw when the app does not know it). */
  rawStatus?: string;
  expiresAt?: string;
  createdAt?: string;
  checkedAt?: string;
  createdBy?: string;
  /** From GET /openapi/config; undefined until probed. */
  tokenCheckEnabled?: boolean;
  /** A sentence for the Admin → Connection page. */
  message: string;
}

export interface ConnectionInfo {
  kind: "sandbox" | "external";
  baseUrl: string;
  /** e.g. "brok…-key": enough to recognise, not to use. */
  appKeyMasked: string;
  pathStyle: "resource" | "legacy";
  algorithm: "HMAC-SHA1" | "HMAC-SHA256";
  version: "v2" | "v3";
}

export interface ConnectionStatus {
  connection: ConnectionInfo;
  token: TokenStatus;
  /** Set when the upstream could not be asked (unreachable, bad credentials…). */
  error?: { errorCode: string; userMessage: string; requestId?: string };
}
