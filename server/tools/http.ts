import "server-only";
import { SIGNATURE_HEADERS } from "@/cli/src/signing";
import { env } from "@/lib/env";
import { requestScheme } from "@/lib/request-scheme";
import type { AuditChannel } from "@/lib/schemas/audit";
import { metaFromHeaders } from "@/server/auth/request-meta";
import { authenticateCliRequest, cliMeta } from "@/server/cli-auth/sessions";
import { cliRefusalResponse } from "@/server/cli-auth/verify";
import { errorJson } from "@/server/http/errors";
import { authenticateBearer, bearerErrorResponse } from "@/server/tokens/bearer";
import type { ToolCaller } from "./call";

/**
 * What the assistant channels' routes share before a tool runs: the request's own origin, the Origin and Host
 * checks, and the caller: a signed command-line request with its session, or else the staff access token (Bearer),
 * with the 401 / 429 answers MCP clients expect.
 */

const list = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/**
 * The origin the client used (scheme from the proxy's X-Forwarded-Proto, `requestScheme`; host from Host): the desk
 * answers on any host, unless CHANNEL_ALLOWED_HOSTS lists the ones it serves (`refuseHost`, which every caller
 * checks first).
 */
export function requestOrigin(request: Request): string {
  return `${requestScheme(request)}://${request.headers.get("host") ?? new URL(request.url).host}`;
}

export const resourceMetadataUrl = (request: Request, path: string) =>
  `${requestOrigin(request)}/.well-known/oauth-protected-resource${path}`;

/**
 * With CHANNEL_ALLOWED_HOSTS set, the Host must be one of them: against DNS rebinding, and so that nothing the desk
 * answers (the RFC 9728 document, `WWW-Authenticate`) names a host it does not serve.
 */
export function refuseHost(request: Request): Response | undefined {
  const host = (request.headers.get("host") ?? "").toLowerCase();
  const hosts = list(env().CHANNEL_ALLOWED_HOSTS);
  if (hosts.length && !hosts.includes(host))
    return errorJson(403, { error: "FORBIDDEN_HOST", message: `Host ${host} is not served here.` });
  return undefined;
}

/**
 * A browser page of another site may not drive the channels (its Origin must be the desk's own or an allowed one);
 * with CHANNEL_ALLOWED_HOSTS set, the Host must be one of them. A client that is not a browser sends no Origin.
 */
export function refuseCrossOrigin(request: Request): Response | undefined {
  const refusedHost = refuseHost(request);
  if (refusedHost) return refusedHost;
  const host = (request.headers.get("host") ?? "").toLowerCase();
  const origin = request.headers.get("origin")?.toLowerCase();
  if (!origin) return undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return errorJson(403, { error: "FORBIDDEN_ORIGIN", message: "The request's Origin is not valid." });
  }
  if (originHost === host || list(env().CHANNEL_ALLOWED_ORIGINS).includes(origin)) return undefined;
  return errorJson(403, { error: "FORBIDDEN_ORIGIN", message: `Origin ${origin} may not call this desk.` });
}

/**
 * The caller of a channel's request (its key's or token's owner, as they are now), or the answer that refuses it. A
 * request carrying the command line's signing headers is the command line's whatever the route: its signature and
 * its session (`Bearer bdcs_…`, bound to the key) authenticate it, with the key's scopes, as channel `cli` with the
 * key's id as the token in the audit trail; any other request presents a staff access token.
 */
export async function channelCaller(request: Request, channel: AuditChannel, path: string): Promise<ToolCaller | Response> {
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  if (request.headers.has(SIGNATURE_HEADERS.key)) {
    const cli = await authenticateCliRequest(request);
    if (!cli.ok) return cliRefusalResponse(cli);
    const { key } = cli.caller;
    return { staff: key.staff, scopes: key.scopes, meta: cliMeta(request, key.id) };
  }
  const auth = await authenticateBearer(request);
  if (!auth.ok) return bearerErrorResponse(auth, resourceMetadataUrl(request, path));
  const { staff, tokenId, scopes } = auth.caller;
  return { staff, scopes, meta: { ...metaFromHeaders(request.headers), channel, tokenId } };
}

/** RFC 9728's document for a channel: what it is, how a token is presented, its scopes, where people create tokens. */
export function protectedResourceMetadata(request: Request, path: string) {
  const origin = requestOrigin(request);
  return {
    resource: `${origin}${path}`,
    resource_name: "Brokerdesk",
    bearer_methods_supported: ["header"],
    scopes_supported: ["read", "write"],
    resource_documentation: `${origin}/settings/tokens`,
  };
}
