import "server-only";
import { createHash, createHmac, randomBytes } from "node:crypto";

/**
 * Request signing of the Broker API (facts sheet §1.2). Shared by the client, which signs, and the sandbox,
 * which verifies: one implementation, so the two cannot drift apart.
 */
export type SignatureAlgorithm = "HMAC-SHA1" | "HMAC-SHA256";
export const SIGNATURE_ALGORITHMS: readonly SignatureAlgorithm[] = ["HMAC-SHA1", "HMAC-SHA256"];
export const SIGNATURE_VERSION = "1.0";

export interface SignatureInput {
  path: string;
  /** Raw (decoded) query values. Repeated keys are joined with "," as the SDKs do. */
  query: Record<string, string>;
  /** The five signing headers, lower-case keys: x-app-key, x-timestamp, x-signature-version, x-signature-algorithm, x-signature-nonce. */
  headers: Record<string, string>;
  /** host[:port] as sent / received. */
  host: string;
  /** The exact body bytes sent, or undefined for a request without a body. */
  body?: string | Uint8Array;
  appSecret: string;
}

export const SIGNED_HEADERS = ["x-app-key", "x-timestamp", "x-signature-version", "x-signature-algorithm", "x-signature-nonce"] as const;

/** RFC 3986 percent-encoding: everything but A-Z a-z 0-9 - _ . ~ becomes %XX (uppercase). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function bodyDigest(algorithm: SignatureAlgorithm, body: string | Uint8Array): string {
  return createHash(algorithm === "HMAC-SHA1" ? "md5" : "sha256")
    .update(body)
    .digest("hex")
    .toUpperCase();
}

/** The string to sign, before percent-encoding (str3 of the recipe). */
export function stringToSign(input: SignatureInput): string {
  const params = new Map<string, string>();
  for (const key of SIGNED_HEADERS) {
    const value = input.headers[key];
    if (value !== undefined) params.set(key, value);
  }
  params.set("host", input.host);
  for (const [key, value] of Object.entries(input.query)) {
    const existing = params.get(key);
    params.set(key, existing === undefined ? value : `${existing}&${value}`);
  }
  const str1 = [...params.keys()]
    .sort()
    .map((k) => `${k}=${params.get(k)}`)
    .join("&");
  let str3 = `${input.path}&${str1}`;
  if (input.body !== undefined) {
    str3 += `&${bodyDigest(input.headers["x-signature-algorithm"] as SignatureAlgorithm, input.body)}`;
  }
  return str3;
}

export function sign(input: SignatureInput): string {
  const algorithm = input.headers["x-signature-algorithm"] as SignatureAlgorithm;
  if (!SIGNATURE_ALGORITHMS.includes(algorithm)) throw new Error(`unsupported signature algorithm ${algorithm}`);
  return createHmac(algorithm === "HMAC-SHA1" ? "sha1" : "sha256", `${input.appSecret}&`)
    .update(percentEncode(stringToSign(input)))
    .digest("base64");
}

/** `YYYY-MM-DDThh:mm:ssZ`, no milliseconds. */
export function signingTimestamp(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function newNonce(): string {
  return randomBytes(16).toString("hex");
}

/** Builds the signed headers of one request: the five signing headers plus x-signature. */
export function signedHeaders(opts: {
  appKey: string;
  appSecret: string;
  algorithm: SignatureAlgorithm;
  path: string;
  query: Record<string, string>;
  host: string;
  body?: string;
  now?: Date;
  nonce?: string;
}): Record<string, string> {
  const headers: Record<string, string> = {
    "x-app-key": opts.appKey,
    "x-timestamp": signingTimestamp(opts.now),
    "x-signature-version": SIGNATURE_VERSION,
    "x-signature-algorithm": opts.algorithm,
    "x-signature-nonce": opts.nonce ?? newNonce(),
  };
  headers["x-signature"] = sign({
    path: opts.path,
    query: opts.query,
    headers,
    host: opts.host,
    body: opts.body,
    appSecret: opts.appSecret,
  });
  return headers;
}
