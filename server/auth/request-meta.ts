import "server-only";
import { headers } from "next/headers";
import type { RequestMeta } from "./staff";

/**
 * The client's address from X-Forwarded-For, trusting only the hops we run: the Next server appends the address of
 * the connection it accepted, and each of `trustedHops` proxies in front of it appended the one before. Entries
 * further left were written by the client and prove nothing.
 */
export function clientIpFrom(forwardedFor: string | null | undefined, trustedHops: number): string | null {
  const hops = (forwardedFor ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return hops[hops.length - 1 - trustedHops] ?? hops[0] ?? null;
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
