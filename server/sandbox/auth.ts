import "server-only";
import { timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { SIGNATURE_ALGORITHMS, SIGNED_HEADERS, sign, type SignatureAlgorithm } from "@/server/wire/signing";
import { isMarketDataPath } from "@/server/wire/operations";
import { isTradingPath } from "@/server/wire/trading-operations";
import type { HonoEnv, Principal, Sandbox } from "./context";
import { badSignature, missingHeader, unauthorized } from "./errors";
import { checkString, readIncomingText, readLimitedText } from "./input-limits";
import { requireNormalToken } from "./tokens";
import { findCredential } from "./trading-api/credentials";

/** ±5 minutes, the upstream's (undocumented) window; also how long a nonce is remembered. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;
export const SUPPORTED_VERSIONS = ["v2", "v3"];

const REQUIRED: [header: string, code: string][] = [
  ["x-app-key", "MISSING_APP_KEY"],
  ["x-signature", "MISSING_SIGNATURE"],
  ["x-signature-algorithm", "MISSING_ALGORITHM"],
  ["x-signature-nonce", "MISSING_NONCE"],
  ["x-timestamp", "MISSING_TIMESTAMP"],
];

/** Paths that need a signature but no x-access-token: the token flow itself, and the sandbox's control API. */
function tokenExempt(path: string): boolean {
  return path === "/openapi/config" || path.startsWith("/openapi/auth/token/") || path.startsWith("/sandbox/");
}

/**
 * Which family an app key reaches: the broker's key everything but the Trading API; an account holder's Trading API
 * key the Trading API, its own 2FA tokens and market data (the real service keeps the families apart the same way).
 */
export function routePermitted(principal: Principal, path: string): boolean {
  // Market data first: company profile and analyst data live under /openapi/instrument/ on v2, and the futures
  // reference data under /openapi/instrument/futures/ and /trading/instruments/futures/, Trading API prefixes, yet they
  // belong to the Market Data API (spec, the SDKs' data client), so both kinds of key reach exactly those paths.
  if (isMarketDataPath(path)) return true;
  const trading = isTradingPath(path);
  if (principal.kind === "broker") return !trading;
  return trading || path === "/openapi/config" || path.startsWith("/openapi/auth/token/");
}

/**
 * Decoded query values; a repeated key is joined with "," (what the SDKs send for lists). The query text is read from
 * the URL as received, without parsing the whole URL again (a URL's searchParams decode the same text the same way);
 * a URL with a fragment goes through the URL parser.
 */
export function queryOf(url: string): Record<string, string> {
  const out: Record<string, string> = {};
  const at = url.indexOf("?");
  if (at < 0) return out;
  const params = url.includes("#") ? new URL(url).searchParams : new URLSearchParams(url.slice(at + 1));
  for (const [k, v] of params) out[k] = k in out ? `${out[k]},${v}` : v;
  return out;
}

/**
 * The hosts a signature may cover: the Host header as received, and, when it names the port the sandbox listens on,
 * the same host without it (an SDK signs its configured endpoint without the port and sends `Host: host:port`; the
 * real service, on 443, never sees a port).
 */
export function signedHostCandidates(host: string, listeningPort: number | undefined): string[] {
  const m = /^(.*):(\d+)$/.exec(host);
  return m && listeningPort !== undefined && Number(m[2]) === listeningPort ? [host, m[1]] : [host];
}

/**
 * Verifies every signed call like the upstream: headers present, version, timestamp window, signature over the
 * host header as received (or without the sandbox's own port) + decoded query + exact body bytes, nonce not
 * replayed, and then the access token. The headers are checked before the body is read, and the body is read up to
 * a size limit, so an unsigned or oversized request costs nothing.
 */
export function authenticate(sb: Sandbox): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (path === "/health") return next();
    const query = queryOf(c.req.url);
    for (const [k, v] of Object.entries(query)) checkString(v, k);
    c.set("query", query);

    const incoming = (
      c.env as
        | { incoming?: { headers: Record<string, string | string[] | undefined>; socket?: { localPort?: number } } & AsyncIterable<Buffer> }
        | undefined
    )?.incoming;
    // Node's own parsed headers (lower-case names, the values Hono's lookup returns) when served by the Node adapter:
    // no Headers object is built for a signed call.
    const h = incoming ? (name: string) => incoming.headers[name] as string | undefined : (name: string) => c.req.header(name);
    for (const [header, code] of REQUIRED) if (!h(header)) throw missingHeader(code, header);
    const version = h("x-version");
    if (version !== undefined && !SUPPORTED_VERSIONS.includes(version)) {
      throw unauthorized("VERSION_NOT_SUPPORTED", `x-version ${version} is not supported; use v3 or v2.`);
    }
    const algorithm = h("x-signature-algorithm") as SignatureAlgorithm;
    if (!SIGNATURE_ALGORITHMS.includes(algorithm)) {
      throw unauthorized("SIGNATURE_ALGORITHM_NOT_SUPPORTED", `Signature algorithm ${algorithm} is not supported.`);
    }
    const timestamp = h("x-timestamp")!;
    const signedAt = Date.parse(timestamp);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp) || Number.isNaN(signedAt)) {
      // sic: the upstream's own spelling of this code
      throw unauthorized("ILLEAGAL_TIMESTAMP", "Header x-timestamp must be yyyy-MM-ddTHH:mm:ssZ.");
    }
    const nowMs = sb.config.now().getTime();
    if (Math.abs(signedAt - nowMs) > CLOCK_SKEW_MS) {
      throw unauthorized("CLOCK_SKEW_EXCEEDED", "Header x-timestamp is outside the allowed clock skew of 5 minutes.");
    }
    const appKey = h("x-app-key")!;
    const holder = appKey === sb.config.appKey ? undefined : await findCredential(sb.engine, appKey);
    if (appKey !== sb.config.appKey && !holder) throw badSignature();
    const appSecret = holder ? holder.app_secret : sb.config.appSecret;
    const text = (incoming && (await readIncomingText(incoming))) ?? (await readLimitedText(c.req.raw));
    const rawBody = text === "" ? undefined : text;
    c.set("rawBody", rawBody);

    const headers: Record<string, string> = {};
    for (const k of SIGNED_HEADERS) {
      const v = h(k);
      if (v !== undefined) headers[k] = v;
    }
    const host = (incoming?.headers.host as string | undefined) ?? h("host") ?? "";
    const given = Buffer.from(h("x-signature")!);
    const matches = signedHostCandidates(host, incoming?.socket?.localPort).some((candidate) => {
      const want = Buffer.from(sign({ path, query, headers, host: candidate, body: rawBody, appSecret }));
      return given.length === want.length && timingSafeEqual(given, want);
    });
    if (!matches) throw badSignature();
    if (holder?.revoked_at)
      throw unauthorized("UNAUTHORIZED", "Your authorization has been revoked. Please contact the broker to authorize again.");
    const principal: Principal = holder ? { kind: "trading", appKey, accountId: holder.account_id } : { kind: "broker", appKey };
    if (!routePermitted(principal, path)) {
      throw unauthorized(
        "ROUTE_NOT_PERMITTED",
        `This app key may not call ${path}: ${principal.kind === "trading" ? "Trading API credentials reach the Trading API, tokens and market data only" : "the Trading API is called with an account holder's Trading API credentials"}.`,
      );
    }
    c.set("principal", principal);

    if (!sb.nonces.use(`${appKey}:${h("x-signature-nonce")}`, nowMs)) {
      throw unauthorized("DUPLICATE_NONCE", "Header x-signature-nonce was already used.");
    }
    if (sb.config.tokenCheck && !tokenExempt(path)) await requireNormalToken(sb, appKey, h("x-access-token"), nowMs);
    return next();
  };
}
