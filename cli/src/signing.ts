import { createHash, createHmac } from "node:crypto";

/**
 * The one implementation of a CLI request's signature (docs: the CLI contract), used by the `brokerdesk` CLI to sign
 * and by the desk to verify (`@/cli/src/signing`). Pure: node:crypto only, no clock, no randomness.
 *
 * string-to-sign = [METHOD, PATH, CANONICAL_QUERY, BODY_SHA256_HEX, TIMESTAMP, NONCE].join("\n")
 * signature      = base64 (standard, padded) of HMAC-SHA256(secret key, string-to-sign)
 */

export const SIGNATURE_HEADERS = {
  key: "x-brokerdesk-key",
  timestamp: "x-brokerdesk-timestamp",
  nonce: "x-brokerdesk-nonce",
  signature: "x-brokerdesk-signature",
} as const;

/** 16–64 characters of [A-Za-z0-9_-]. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export type SigningParts = {
  /** Any case: upper-cased here. */
  method: string;
  /** The URL's pathname exactly as sent, e.g. `/api/skills/find-orders`. */
  path: string;
  /** The URL's query: its search string (with or without `?`), or its parsed pairs. */
  query?: string | URLSearchParams;
  /** The exact body bytes (a string is its UTF-8 bytes); absent or empty when there is no body. */
  body?: string | Uint8Array;
  /** Milliseconds since the epoch, as the decimal string sent in `x-brokerdesk-timestamp`. */
  timestamp: string;
  nonce: string;
};

/**
 * The query's pairs, each key and value percent-encoded with encodeURIComponent, sorted by (encoded) key then
 * (encoded) value in code-unit order, joined `k=v` with `&`; the empty string when there is none.
 */
export function canonicalQuery(query: string | URLSearchParams | undefined): string {
  if (query === undefined) return "";
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  const pairs = [...params].map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as const);
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

/** Hex SHA-256 of the exact body bytes (of the empty string when there is no body). */
export function bodySha256Hex(body: string | Uint8Array | undefined): string {
  return createHash("sha256")
    .update(body ?? "")
    .digest("hex");
}

export function stringToSign(parts: SigningParts): string {
  return [
    parts.method.toUpperCase(),
    parts.path,
    canonicalQuery(parts.query),
    bodySha256Hex(parts.body),
    parts.timestamp,
    parts.nonce,
  ].join("\n");
}

/** The `x-brokerdesk-signature` value: base64 of HMAC-SHA256 keyed with the secret key (its UTF-8 bytes). */
export function sign(secret: string, parts: SigningParts): string {
  return createHmac("sha256", secret).update(stringToSign(parts)).digest("base64");
}
