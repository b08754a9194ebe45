import "server-only";
import { createHash, randomBytes } from "node:crypto";

/**
 * A staff access token's secret: `bdk_` and 32 random bytes in base64url (43 characters). The desk keeps only its
 * SHA-256 (hex), looked up by equality on a unique index, so nothing compares the secret itself character by
 * character; the prefix shown beside a token is the secret's first ten characters (`bdk_` and six random ones).
 */
export const SECRET_PREFIX = "bdk_";
const SECRET_PATTERN = /^bdk_[A-Za-z0-9_-]{43}$/;

export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** Whether a presented value can be one of our secrets at all (anything else is refused without a query). */
export function isSecretShaped(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, SECRET_PREFIX.length + 6);
}
