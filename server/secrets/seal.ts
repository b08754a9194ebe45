import "server-only";
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";

/**
 * Secrets the desk must read back (a staff member's TOTP secret, an access key's secret for HMAC verification) are
 * stored sealed: AES-256-GCM under a key derived with HKDF-SHA256 from AUTH_SECRET (the app's secret: configured,
 * or generated into `.data/auth-secret` by `npm start`), with the row they belong to as associated data, so a sealed
 * value copied onto another row does not open. Changing AUTH_SECRET makes every sealed value unreadable: access keys
 * must be made again and authenticators enrolled again. Tests get a fixed AUTH_SECRET from vitest.config.ts.
 */

const VERSION = "v1";
const SALT = "brokerdesk";

function appSecret(): string {
  const secret = env().AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is not set: `npm start` generates one on the embedded defaults; set it otherwise.");
  return secret;
}

const keys = new Map<string, Buffer>();

/** A 32-byte key for one purpose, derived once a process from the app's secret. */
export function derivedKey(purpose: string): Buffer {
  const secret = appSecret();
  const id = `${purpose}\n${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, SALT, `brokerdesk ${purpose}`, 32));
    keys.set(id, key);
  }
  return key;
}

/** Seals `plain` for the row named by `context` (e.g. `cli_access_key:bdak_…`): `v1.` + base64url(iv, tag, ciphertext). */
export function seal(plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey("sealed secrets"), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

/** The sealed value's plain text; throws when it was sealed for another row, altered, or under another AUTH_SECRET. */
export function unseal(sealed: string, context: string): string {
  const [version, data] = sealed.split(".");
  if (version !== VERSION || !data) throw new Error("not a sealed value");
  const raw = Buffer.from(data, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", derivedKey("sealed secrets"), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** HMAC-SHA256 of `text` under the key of `purpose`, base64url: short-lived tokens the desk signs for itself. */
export function macOf(purpose: string, text: string): string {
  return createHmac("sha256", derivedKey(purpose)).update(text, "utf8").digest("base64url");
}

/** Whether `mac` is `text`'s MAC for `purpose`, compared in constant time. */
export function macMatches(purpose: string, text: string, mac: string): boolean {
  const expected = Buffer.from(macOf(purpose, text));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
