import "server-only";
import { createHash, createHmac } from "node:crypto";
import { percentEncode, SIGNED_HEADERS, type SignatureAlgorithm } from "@/server/wire/signing";

/**
 * Signature of a gRPC event subscription (facts §1.4, as both official SDKs compute it): the five signing headers
 * travel as metadata; no path and no host are signed. With no path, the SDKs' string builder joins the sorted
 * `k=v` pairs with `=` (not `&`), then appends `&` and the LOWER-case hex digest (MD5 for HMAC-SHA1, SHA-256 for
 * HMAC-SHA256) of the SubscribeRequest bytes exactly as the client serialised them; the whole string is
 * percent-encoded and signed with HMAC keyed `secret&`, base64.
 */
export function subscriptionStringToSign(headers: Record<string, string>, requestBytes: Uint8Array): string {
  const algorithm = headers["x-signature-algorithm"] as SignatureAlgorithm;
  const pairs = SIGNED_HEADERS.filter((k) => headers[k] !== undefined)
    .sort()
    .map((k) => `${k}=${headers[k]}`)
    .join("=");
  const digest = createHash(algorithm === "HMAC-SHA1" ? "md5" : "sha256")
    .update(requestBytes)
    .digest("hex");
  return `${pairs}&${digest}`;
}

export function signSubscription(headers: Record<string, string>, requestBytes: Uint8Array, appSecret: string): string {
  const algorithm = headers["x-signature-algorithm"] as SignatureAlgorithm;
  return createHmac(algorithm === "HMAC-SHA1" ? "sha1" : "sha256", `${appSecret}&`)
    .update(percentEncode(subscriptionStringToSign(headers, requestBytes)))
    .digest("base64");
}
