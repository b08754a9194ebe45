import "server-only";
import { env, isDemoMode, type Env } from "@/lib/env";
import { mailTokenKey } from "./tokens";

/** The links' key (from AUTH_SECRET), or undefined when no secret is configured (no links can be signed or read). */
export function mailKey(e: Env = env()): Buffer | undefined {
  return e.AUTH_SECRET ? mailTokenKey(e.AUTH_SECRET) : undefined;
}

/**
 * The desk's address as a mail's reader reaches it, for the links of the status mails: AUTH_URL's origin; without it
 * http://localhost:PORT on the embedded defaults (the demo runs on one machine); else undefined. Mails are composed
 * in the job system, where no request names a host, so without AUTH_URL there is no address a reader could open.
 */
export function publicBaseUrl(e: Env = env()): string | undefined {
  if (e.AUTH_URL) return new URL(e.AUTH_URL).origin;
  return isDemoMode(e) ? `http://localhost:${e.PORT}` : undefined;
}

/**
 * Why the status mails (subscriptions, their confirmations, incidents) are off, for the log and the pages; undefined
 * when they are sent. Off: no AUTH_SECRET (no link can be signed) or no public address for the links.
 */
export function statusMailOff(e: Env = env()): string | undefined {
  if (!mailKey(e)) return "AUTH_SECRET is not set, so no link can be signed";
  if (!publicBaseUrl(e)) {
    return "AUTH_URL (the desk's public address, e.g. https://desk.example.com) is not set, so a mail's links could not name the desk";
  }
  return undefined;
}
