import { decode, encode, type JWT } from "next-auth/jwt";
import { SESSION_COOKIE, SESSION_MAX_AGE_S } from "@/auth.config";

/**
 * The session cookie's token, opened and renewed here for the proxy (every page) and the guard (every page, action and
 * data route). Auth.js seals it at sign-in and clears it at sign-out; its own request handler, run on every page by
 * its proxy wrapper, derived the key again, checked a CSRF token and sealed a renewed cookie each time: a fifth of the
 * app's CPU under the end-to-end run. Here a token is opened once per process (kept until it expires) and renewed at
 * most once a minute, in Auth.js's format with its keys (next-auth/jwt, salted with the cookie's name), so a session
 * outlives a change of either side. Not `server-only`: the proxy imports it.
 */

/** Opened tokens kept at most; the oldest make way. */
const MAX_OPENED = 1_000;
/** A token's `exp` is honoured with Auth.js's clock tolerance. */
const CLOCK_TOLERANCE_S = 15;
/** A session's cookie is sealed again once it is this old: its idle expiry moves on at most once a minute. */
export const RENEW_AFTER_S = 60;

/** One map a process: the proxy and the pages are bundled apart, each with its own copy of this module. */
const OPENED = Symbol.for("brokerdesk/opened-session-tokens");
const opened: Map<string, JWT> = ((globalThis as { [OPENED]?: Map<string, JWT> })[OPENED] ??= new Map());

/** As Auth.js orders them: AUTH_SECRET_3…1 first (the newest while a secret is rotated), AUTH_SECRET last; sealed with the first. */
function secrets(): string[] {
  return [3, 2, 1]
    .map((i) => process.env[`AUTH_SECRET_${i}`])
    .concat(process.env.AUTH_SECRET)
    .filter((v): v is string => !!v);
}

const now = () => Date.now() / 1000;

/** The token's claims (`sub`, `signedInAt`, `iat`, `exp`, …), or null when there is none or it does not open or has expired. */
export async function openSessionToken(token: string | undefined): Promise<JWT | null> {
  if (!token) return null;
  const known = opened.get(token);
  if (known) {
    if (Number(known.exp) + CLOCK_TOLERANCE_S > now()) return known;
    opened.delete(token);
    return null;
  }
  const secret = secrets();
  if (!secret.length) return null;
  const claims = await decode({ token, secret, salt: SESSION_COOKIE }).catch(() => null);
  if (!claims) return null;
  if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value!);
  opened.set(token, claims);
  return claims;
}

/** The session sealed again with a new expiry, when its token is older than RENEW_AFTER_S; else undefined. */
export async function renewSessionToken(claims: JWT): Promise<string | undefined> {
  if (now() - Number(claims.iat ?? 0) < RENEW_AFTER_S) return undefined;
  return encode({ token: { ...claims }, secret: secrets(), salt: SESSION_COOKIE, maxAge: SESSION_MAX_AGE_S });
}
