import "server-only";
import { bodyTooLargeResponse, isBodyTooLarge, readBodyText } from "@/server/http/body";
import { errorJson } from "@/server/http/errors";
import { callTool, type ToolCaller, type ToolOutcome } from "./call";
import { skillName, TOOLS, toolForSkill, toolJsonSchemas } from "./registry";

/**
 * The skills endpoints: `POST /api/skills/{name}`, JSON in (at most BODY_LIMIT_BYTES: 413 past it) and JSON out,
 * one tool of the registry each; `GET /api/skills` lists them with their JSON Schemas.
 */

/** The HTTP status of a refused or failed call, by its code (as the desk's routes answer them). */
function statusOf(code: string): number {
  if (code === "VALIDATION" || code === "BAD_REQUEST") return 400;
  if (code === "UNAUTHENTICATED") return 401;
  if (code === "FORBIDDEN" || code === "INSUFFICIENT_SCOPE") return 403;
  if (code.endsWith("NOT_FOUND")) return 404;
  if (code === "RATE_LIMITED") return 429;
  if (code === "INTERNAL") return 500;
  if (/^(UPSTREAM|NETWORK|TIMEOUT)/.test(code)) return 502;
  return 422;
}

export function skillAnswer(outcome: ToolOutcome): Response {
  if (!outcome.ok) {
    return errorJson(statusOf(outcome.code), { error: outcome.code, message: outcome.message, fieldErrors: outcome.fieldErrors });
  }
  const held = (outcome.data as { status?: unknown }).status === "held";
  return Response.json(outcome.data, { status: held ? 202 : 200, headers: { "cache-control": "no-store" } });
}

export async function callSkill(name: string, request: Request, caller: ToolCaller): Promise<Response> {
  const tool = toolForSkill(name);
  if (!tool) return errorJson(404, { error: "NOT_FOUND", message: `No skill named ${name}.` });
  let body: unknown = {};
  let text: string;
  try {
    text = await readBodyText(request);
  } catch (e) {
    if (isBodyTooLarge(e)) return bodyTooLargeResponse(e);
    throw e;
  }
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      return errorJson(400, { error: "BAD_REQUEST", message: "The body is not JSON." });
    }
  }
  return skillAnswer(await callTool(tool, body, caller));
}

/** Every skill with what it needs and answers (the listing, and docs/skills.md). */
export function skillListing() {
  return TOOLS.map((tool) => {
    const { input, output } = toolJsonSchemas(tool);
    return {
      name: skillName(tool),
      tool: tool.name,
      title: tool.title,
      description: tool.description,
      read_only: tool.readOnly,
      destructive: !!tool.destructive,
      input_schema: input,
      output_schema: output,
    };
  });
}
