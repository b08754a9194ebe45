import "server-only";
import { env, type Env } from "@/lib/env";
import { mailTokenKey } from "./tokens";

/** The links' key (from AUTH_SECRET), or undefined when no secret is configured (no links can be signed or read). */
export function mailKey(e: Env = env()): Buffer | undefined {
  return e.AUTH_SECRET ? mailTokenKey(e.AUTH_SECRET) : undefined;
}

/** The desk's address as a recipient's browser reaches it: AUTH_URL's origin, else this host on PORT. */
export function publicBaseUrl(e: Env = env()): string {
  const url = process.env.AUTH_URL;
  return url ? new URL(url).origin : `http://localhost:${e.PORT}`;
}
