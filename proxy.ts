import { NextResponse, type NextRequest } from "next/server";
import { requestScheme } from "@/lib/request-scheme";
import { securityHeaders } from "@/lib/security-headers";
import { openSessionToken, renewSessionToken } from "@/server/auth/session-token";
import { pageAccess, SESSION_COOKIE, SESSION_COOKIE_OPTIONS, SESSION_MAX_AGE_S } from "./auth.config";

/**
 * Pages only: sends signed-out visitors to the sign-in page (auth.config.ts `pageAccess`); permissions are enforced by
 * each page and action, not here. A session's cookie is renewed on the pages it opens (server/auth/session-token.ts:
 * at most once a minute), so it lasts SESSION_MAX_AGE_HOURS from the last page opened. Every page it lets through
 * carries the security headers, with a fresh script nonce that Next reads from the request's Content-Security-Policy
 * and puts on its own scripts. Route handlers under /api are not matched: each checks the session itself (server/http's
 * jsonRoute and its kin answer 401 and 403), and their static headers come from next.config.mjs.
 */
export default async function proxy(request: NextRequest): Promise<Response> {
  const claims = await openSessionToken(request.cookies.get(SESSION_COOKIE)?.value);
  const access = pageAccess(request, claims !== null);
  if (access !== true) return access;
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const https = requestScheme(request) === "https";
  const headers = securityHeaders({ nonce, https, dev: process.env.NODE_ENV === "development" });
  const forwarded = new Headers(request.headers);
  forwarded.set("content-security-policy", headers["content-security-policy"]);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  const renewed = claims && (await renewSessionToken(claims));
  if (renewed) response.cookies.set(SESSION_COOKIE, renewed, { ...SESSION_COOKIE_OPTIONS, maxAge: SESSION_MAX_AGE_S });
  return response;
}

export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico)$).*)"],
};
