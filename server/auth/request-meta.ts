import "server-only";
import { headers } from "next/headers";
import type { RequestMeta } from "./staff";

/**
 * The client's address from X-Forwarded-For, trusting only the proxies we run: each of the `trustedHops` proxies in
 * front of the app appends the address it was connected from, so the entry the outermost one wrote is the client.
 * Entries further left were written by the client and prove nothing; with no trusted proxy (Next does not add the
 * connection's address itself) the header is the client's own word, and no address is recorded.
 */
export function clientIpFrom(forwardedFor: string | null | undefined, trustedHops: number): string | null {
  if (trustedHops < 1) return null;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return hops[hops.length - trustedHops] ?? null;
}

export function metaFromHeaders(h: Headers, trustedHops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0) || 0): RequestMeta {
  return {
    clientIp: clientIpFrom(h.get("x-forwarded-for"), trustedHops)?.slice(0, 64) ?? null,
    userAgent: h.get("user-agent")?.slice(0, 400) ?? null,
  };
}

export async function requestMeta(): Promise<RequestMeta> {
  return metaFromHeaders(await headers());
}

/** The desk's origin as this page's visitor reached it (the configured AUTH_URL behind a proxy), e.g. for a command to copy. */
export async function pageOrigin(): Promise<string> {
  if (process.env.AUTH_URL) return new URL(process.env.AUTH_URL).origin;
  const h = await headers();
  const proto = h.get("x-forwarded-proto")?.split(",")[0].trim() || "http";
  return `${proto}://${h.get("host") ?? "localhost:3000"}`;
}
