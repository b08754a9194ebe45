import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The signature of every command-line request to the desk, one implementation for both sides: the `brokerdesk` CLI
 * signs with it and the desk verifies with it (server/cli-auth/verify.ts). Pure: node:crypto only.
 *
 * string-to-sign = METHOD \n PATH \n CANONICAL_QUERY \n BODY_SHA256_HEX \n TIMESTAMP \n NONCE, where the method is
 * upper case, the path is the URL's pathname as sent, the query is its pairs percent-encoded (encodeURIComponent),
 * sorted by key then value and joined `k=v` with `&`, and the body hash is the hex SHA-256 of the exact body bytes
 * (of nothing when there is no body). The signature is base64 (standard, padded) of HMAC-SHA256 keyed with the
 * secret key (`bdsk_…`, its UTF-8 bytes).
 */

export const SIGNING_HEADERS = {
  key: "x-brokerdesk-key",
  timestamp: "x-brokerdesk-timestamp",
  nonce: "x-brokerdesk-nonce",
  signature: "x-brokerdesk-signature",
} as const;

/** 16–64 characters of [A-Za-z0-9_-], unique per request. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export interface SigningParts {
  method: string;
  /** The URL's pathname exactly as sent, e.g. `/api/skills/find-orders`. */
  path: string;
  /** The query as sent (a search string, with or without `?`), or its pairs; none: no query. */
  query?: string | URLSearchParams;
  /** The exact body bytes; none: no body. */
  body?: string | Uint8Array;
  /** Milliseconds since the epoch, as sent in the timestamp header. */
  timestamp: string;
  nonce: string;
}

/** The query's pairs, each key and value percent-encoded, sorted by key then value, joined `k=v` with `&`. */
export function canonicalQuery(query: string | URLSearchParams | undefined): string {
  const params = typeof query === "string" || query === undefined ? new URLSearchParams(query ?? "") : query;
  const pairs = [...params].map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as const);
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

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

/** base64 (standard, padded) of HMAC-SHA256(secret, string-to-sign). */
export function sign(secret: string, parts: SigningParts): string {
  return createHmac("sha256", secret).update(stringToSign(parts), "utf8").digest("base64");
}

/** Whether `signature` is the request's signature under `secret`, compared in constant time. */
export function signatureMatches(secret: string, parts: SigningParts, signature: string): boolean {
  const expected = Buffer.from(sign(secret, parts), "base64");
  const given = Buffer.from(signature, "base64");
  // Buffer.from ignores what is not base64: the given text must be exactly the canonical encoding too.
  return given.length === expected.length && given.toString("base64") === signature && timingSafeEqual(expected, given);
}

export function newNonce(): string {
  return randomBytes(18).toString("base64url");
}

/** The four signing headers of one request to `url` (its pathname and query as they will be sent). */
export function signedHeaders(o: {
  keyId: string;
  secret: string;
  method: string;
  url: string | URL;
  body?: string | Uint8Array;
  now?: number;
  nonce?: string;
}): Record<string, string> {
  const url = new URL(o.url);
  const timestamp = String(o.now ?? Date.now());
  const nonce = o.nonce ?? newNonce();
  const signature = sign(o.secret, { method: o.method, path: url.pathname, query: url.search, body: o.body, timestamp, nonce });
  return {
    [SIGNING_HEADERS.key]: o.keyId,
    [SIGNING_HEADERS.timestamp]: timestamp,
    [SIGNING_HEADERS.nonce]: nonce,
    [SIGNING_HEADERS.signature]: signature,
  };
}
