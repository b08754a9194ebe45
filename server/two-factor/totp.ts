import "server-only";
import { timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";

/**
 * RFC 6238 codes as every authenticator app makes them: HMAC-SHA1, 6 digits, 30-second steps; a code is accepted
 * for the step before and after the current one (clocks drift), never for a step at or before the last one used.
 */
export const PERIOD_SECONDS = 30;
const ISSUER = "Brokerdesk";

function totpOf(secret: string, label = "staff"): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A new secret (20 random bytes), in base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads (from the QR code, or typed). */
export function otpauthUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

export function stepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS);
}

/** The code of a step (tests, and nothing else, make codes). */
export function codeAt(secret: string, step: number): string {
  return totpOf(secret).generate({ timestamp: step * PERIOD_SECONDS * 1000 });
}

/**
 * The step `code` belongs to (the current one, or one step either side), when it is after `lastStep`; else
 * undefined. Compared in constant time.
 */
export function matchingStep(secret: string, code: string, now: Date, lastStep: number | null): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const given = Buffer.from(code);
  const current = stepAt(now);
  for (const step of [current, current - 1, current + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    if (timingSafeEqual(Buffer.from(codeAt(secret, step)), given)) return step;
  }
  return undefined;
}
