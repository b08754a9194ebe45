import "server-only";
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * The links of the status mails: `payload.signature`, both base64url; the payload names its purpose, the
 * subscription, the confirmation's nonce and when it expires; the signature is HMAC-SHA256 with a key derived from
 * AUTH_SECRET (HKDF, its own label: no other use of the secret shares the key). A tampered, expired or foreign token
 * is refused the same way.
 */
export type MailTokenPurpose = "confirm" | "unsubscribe";

/** A confirmation link is good for a day; an unsubscribe link for a year (a mail is read long after it was sent). */
export const TOKEN_LIFETIME_MS: Record<MailTokenPurpose, number> = {
  confirm: 24 * 3600_000,
  unsubscribe: 365 * 24 * 3600_000,
};

const payloadSchema = z.object({
  p: z.enum(["confirm", "unsubscribe"]),
  s: z.string().uuid(),
  n: z.string().optional(),
  e: z.number().int(),
});

export interface MailTokenClaims {
  purpose: MailTokenPurpose;
  subscriptionId: string;
  nonce?: string;
}

export function mailTokenKey(authSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, "brokerdesk", "status-mail links", 32));
}

const sign = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

export function signMailToken(key: Buffer, claims: MailTokenClaims, now: Date): string {
  const body = {
    p: claims.purpose,
    s: claims.subscriptionId,
    n: claims.nonce,
    e: Math.floor((now.getTime() + TOKEN_LIFETIME_MS[claims.purpose]) / 1000),
  };
  const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
  return `${payload}.${sign(key, payload)}`;
}

/** The claims of a good token of `purpose`, or undefined (malformed, tampered, expired, another purpose). */
export function verifyMailToken(key: Buffer, token: string, purpose: MailTokenPurpose, now: Date): MailTokenClaims | undefined {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let parsed: z.infer<typeof payloadSchema>;
  try {
    parsed = payloadSchema.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    return undefined;
  }
  if (parsed.p !== purpose || parsed.e * 1000 <= now.getTime()) return undefined;
  return { purpose: parsed.p, subscriptionId: parsed.s, nonce: parsed.n };
}
