import { protectedResourceMetadata, refuseHost } from "@/server/tools/http";

export const dynamic = "force-dynamic";

/**
 * RFC 9728 protected-resource metadata of the assistant channels (MCP clients read it after a 401), on the host and
 * scheme the client used: a Host outside CHANNEL_ALLOWED_HOSTS is refused as on the channels themselves. Never
 * stored (`no-store`): the document is made from the request's Host and X-Forwarded-Proto, which a cache in front
 * need not key on (a `Vary` on them is honoured unevenly, and one request could then name another host to everyone
 * for as long as it was kept); it is read once after a 401 and costs nothing to make.
 */
export async function GET(request: Request, { params }: { params: Promise<{ path?: string[] }> }): Promise<Response> {
  const refused = refuseHost(request);
  if (refused) return refused;
  const path = (await params).path?.join("/");
  const resource = path === "api/skills" ? "/api/skills" : "/api/mcp";
  return Response.json(protectedResourceMetadata(request, resource), { headers: { "cache-control": "no-store" } });
}
