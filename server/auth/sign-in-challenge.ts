import "server-only";
import { macMatches, macOf } from "@/server/secrets/seal";

/**
 * What the sign-in page holds between the password and the code of a staff member with two-factor sign-in: the
 * staff member's id and an expiry, signed by the desk (HMAC under a key derived from AUTH_SECRET). It proves the
 * password was right minutes ago and nothing more: the code is still checked, and counted, like any other.
 */
const PURPOSE = "sign-in challenge";
export const CHALLENGE_MINUTES = 5;

export function issueChallenge(staffId: string, now = new Date()): string {
  const body = `${staffId}.${now.getTime() + CHALLENGE_MINUTES * 60_000}`;
  return `${body}.${macOf(PURPOSE, body)}`;
}

/** The staff member's id, when the challenge is the desk's and has not expired. */
export function readChallenge(challenge: string, now = new Date()): string | undefined {
  const match = /^([0-9a-f-]{36})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(challenge);
  if (!match) return undefined;
  const [, staffId, expires, mac] = match;
  if (!macMatches(PURPOSE, `${staffId}.${expires}`, mac) || Number(expires) <= now.getTime()) return undefined;
  return staffId;
}
