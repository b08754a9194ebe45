import type { NextAuthConfig } from "next-auth";
import type { NextRequest } from "next/server";
import { requestScheme } from "@/lib/request-scheme";

const hours = Number(process.env.SESSION_MAX_AGE_HOURS ?? 8) || 8;
// Behind HTTPS (AUTH_URL https://…) the session cookie is Secure and __Host- prefixed: no Domain, path /, HTTPS only.
const secureCookies = process.env.AUTH_URL?.startsWith("https://") ?? false;
/** The session cookie's name, which is also the salt of its JWT's key (server/auth/session-token.ts opens it). */
export const SESSION_COOKIE = secureCookies ? "__Host-brokerdesk.session" : "brokerdesk.session";

/*
 * The proxy sees pages, not /api (proxy.ts): route handlers answer signed-out callers themselves, the assistant
 * channels and the command line with their own credentials (server/tools/http.ts, server/cli-auth).
 */

/**
 * The assistant channels' RFC 9728 metadata, read by their clients before any credential: the bare document and
 * each channel's below it (`/.well-known/oauth-protected-resource/api/mcp`, which `WWW-Authenticate` names).
 */
const TOKEN_PATHS = ["/.well-known/oauth-protected-resource"];
const isTokenPath = (path: string) => TOKEN_PATHS.some((p) => path === p || path.startsWith(`${p}/`));

/** With STATUS_PUBLIC, the status page answers without sign-in (states only: server/status/page.ts). */
const STATUS_PATH = "/status";
const statusPublic = () => ["true", "1"].includes(process.env.STATUS_PUBLIC ?? "");

/** The status mails' confirm and unsubscribe links, open without a session: their signed token is the credential. */
const STATUS_MAIL_PATHS = ["/status/confirm", "/status/unsubscribe"];

/** The session cookie's options as Auth.js sets them at sign-in, and as the proxy sets them when it renews the session. */
export const SESSION_COOKIE_OPTIONS = { httpOnly: true, sameSite: "lax", path: "/", secure: secureCookies } as const;
/** How long a session lasts without a page being opened (SESSION_MAX_AGE_HOURS, default 8), in seconds. */
export const SESSION_MAX_AGE_S = hours * 3600;

/**
 * The proxy's decision for a page request (proxy.ts): true to let it through, or the redirect of a signed-out visitor
 * to sign-in. The server's own idea of its origin (localhost) is not the host the browser used: the redirect goes to
 * the Host the request came on, by the scheme the client used (requestScheme), or to the configured public URL behind
 * a proxy, with a relative callbackUrl, so sign-in works on whatever host name reached the desk.
 */
export function pageAccess(request: NextRequest, signedIn: boolean): true | Response {
  const path = request.nextUrl.pathname;
  if (path === "/sign-in" || isTokenPath(path) || STATUS_MAIL_PATHS.includes(path)) return true;
  if (signedIn) return true;
  if (path === STATUS_PATH && statusPublic()) return true;
  const origin = process.env.AUTH_URL
    ? new URL(process.env.AUTH_URL).origin
    : `${requestScheme(request)}://${request.headers.get("host") ?? request.nextUrl.host}`;
  const target = new URL("/sign-in", origin);
  target.searchParams.set("callbackUrl", `${path}${request.nextUrl.search}`);
  return Response.redirect(target, 307);
}

/**
 * The part of the Auth.js configuration that needs no database: sign-in and sign-out (auth.ts). The credentials
 * provider lives in auth.ts; the session cookie is opened and renewed by server/auth/session-token.ts.
 */
export const authConfig = {
  pages: { signIn: "/sign-in" },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  cookies: { sessionToken: { name: SESSION_COOKIE, options: SESSION_COOKIE_OPTIONS } },
  trustHost: true,
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.role = (user as { role?: string }).role;
        // Survives the rolling refresh of the cookie (unlike iat), so sign-out can void older sessions.
        token.signedInAt = Date.now();
      }
      return token;
    },
    session({ session, token }) {
      session.user.id = token.sub ?? "";
      (session.user as { role?: unknown }).role = token.role;
      (session as { signedInAt?: unknown }).signedInAt = token.signedInAt;
      return session;
    },
  },
} satisfies NextAuthConfig;
