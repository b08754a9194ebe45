import { channelCaller } from "@/server/tools/http";
import { handleMcpRequest } from "@/server/tools/mcp";

export const dynamic = "force-dynamic";

/**
 * The MCP server (Streamable HTTP, stateless: any instance answers any request): the tool registry for the staff
 * member whose access token (Bearer) is presented. Only POST: the server sends no stream of its own.
 */
export async function POST(request: Request): Promise<Response> {
  const caller = await channelCaller(request, "mcp", "/api/mcp");
  return caller instanceof Response ? caller : handleMcpRequest(request, caller);
}

const notAllowed = () =>
  Response.json({ error: "METHOD_NOT_ALLOWED", message: "POST JSON-RPC messages here." }, { status: 405, headers: { allow: "POST" } });
export const GET = notAllowed;
export const DELETE = notAllowed;
