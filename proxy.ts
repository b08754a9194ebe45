import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { securityHeaders } from "@/lib/security-headers";
import { authConfig } from "./auth.config";

const { auth } = NextAuth(authConfig);

/**
 * Sends signed-out visitors to the sign-in page (auth.config.ts `authorized`); permissions are enforced by each page
 * and action, not here. Every response it lets through carries the security headers, with a fresh script nonce that
 * Next reads from the request's Content-Security-Policy and puts on its own scripts.
 */
export default auth((request) => {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const https = (request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(/:$/, "")) === "https";
  const headers = securityHeaders({ nonce, https, dev: process.env.NODE_ENV === "development" });
  const forwarded = new Headers(request.headers);
  forwarded.set("content-security-policy", headers["content-security-policy"]);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
});

export const config = {
  matcher: ["/((?!api/auth|api/health|_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico)$).*)"],
};
