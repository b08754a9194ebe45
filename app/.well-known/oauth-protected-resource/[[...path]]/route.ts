import { protectedResourceMetadata } from "@/server/tools/http";

export const dynamic = "force-dynamic";

/** RFC 9728 protected-resource metadata of the assistant channels (MCP clients read it after a 401). */
export async function GET(request: Request, { params }: { params: Promise<{ path?: string[] }> }): Promise<Response> {
  const path = (await params).path?.join("/");
  const resource = path === "api/skills" ? "/api/skills" : "/api/mcp";
  return Response.json(protectedResourceMetadata(request, resource), { headers: { "cache-control": "public, max-age=3600" } });
}
