import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { requestScheme } from "@/lib/request-scheme";
import { securityHeaders } from "@/lib/security-headers";
import { authConfig } from "./auth.config";

const { auth } = NextAuth(authConfig);

/**
 * Pages only: sends signed-out visitors to the sign-in page (auth.config.ts `authorized`); permissions are enforced by
 * each page and action, not here. Every page it lets through carries the security headers, with a fresh script nonce
 * that Next reads from the request's Content-Security-Policy and puts on its own scripts. Route handlers under /api
 * are not matched: each checks the session itself (server/http's jsonRoute and its kin answer 401 and 403), so a data
 * route opens the session once, and their static headers come from next.config.mjs.
 */
export default auth((request) => {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const https = requestScheme(request) === "https";
  const headers = securityHeaders({ nonce, https, dev: process.env.NODE_ENV === "development" });
  const forwarded = new Headers(request.headers);
  forwarded.set("content-security-policy", headers["content-security-policy"]);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
});

export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico)$).*)"],
};
