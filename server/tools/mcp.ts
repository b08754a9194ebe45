import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { callTool, type ToolCaller } from "./call";
import { TOOLS, toolJsonSchemas, toolNamed } from "./registry";

const INSTRUCTIONS =
  "Brokerdesk is a broker's back office. These tools act for the staff member whose access token you hold, with that " +
  "person's permissions: a refusal means their role may not do it. Writes are audited; an approval rule may hold a " +
  "write (status held) until a second person approves it on the desk. Reuse a client_request_id when you retry a write.";

/** The registry's tools as MCP lists them (JSON Schemas made once per process). */
function listedTools() {
  return TOOLS.map((tool) => {
    const { input, output } = toolJsonSchemas(tool);
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: input as { type: "object" },
      outputSchema: output as { type: "object" },
      annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: !!tool.destructive, openWorldHint: true },
    };
  });
}

/**
 * One MCP request over Streamable HTTP, stateless: a server and a transport for this request only, so that any app
 * instance answers any request (no session to find). JSON answers, no server-initiated stream.
 */
export async function handleMcpRequest(request: Request, caller: ToolCaller): Promise<Response> {
  const server = new Server({ name: "brokerdesk", version: "0.1.0" }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    const tool = toolNamed(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool named ${params.name}.`);
    const outcome = await callTool(tool, params.arguments ?? {}, caller);
    if (outcome.ok) {
      const data = outcome.data as Record<string, unknown>;
      return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
    }
    const fields = outcome.fieldErrors ? ` ${JSON.stringify(outcome.fieldErrors)}` : "";
    return { isError: true, content: [{ type: "text", text: `${outcome.code}: ${outcome.message}${fields}` }] };
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
