import "server-only";
import { createHmac } from "node:crypto";
import { bodyDigest, percentEncode, SIGNED_HEADERS, type SignatureAlgorithm } from "@/server/broker/signing";

/**
 * Signature of a gRPC event subscription (facts §1.4): the five signing headers travel as metadata; no path and no
 * host are signed; the "body" digest is taken over the protobuf-serialized SubscribeRequest bytes. String to sign:
 * sorted `k=v` pairs of the headers joined with `&`, then `&` + the digest; percent-encoded; HMAC keyed `secret&`.
 */
export function signSubscription(headers: Record<string, string>, requestBytes: Uint8Array, appSecret: string): string {
  const algorithm = headers["x-signature-algorithm"] as SignatureAlgorithm;
  const str1 = SIGNED_HEADERS.filter((k) => headers[k] !== undefined).sort().map((k) => `${k}=${headers[k]}`).join("&");
  const str3 = `${str1}&${bodyDigest(algorithm, requestBytes)}`;
  return createHmac(algorithm === "HMAC-SHA1" ? "sha1" : "sha256", `${appSecret}&`).update(percentEncode(str3)).digest("base64");
}
