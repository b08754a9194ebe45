import "server-only";
import { toolPermission } from "./tool";
import { TOOLS, skillName, toolJsonSchemas } from "./registry";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  const?: unknown;
  anyOf?: Schema[];
};

const typeOf = (s: Schema): string => {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map(typeOf).join(" \\| ");
  return Array.isArray(s.type) ? s.type.join(" \\| ") : (s.type ?? "any");
};
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

function fields(schema: Schema): string[] {
  const props = Object.entries(schema.properties ?? {});
  if (!props.length) return ["No arguments.", ""];
  return [
    "| argument | type | required | default | meaning |",
    "|---|---|---|---|---|",
    ...props.map(
      ([name, s]) =>
        `| \`${name}\` | ${typeOf(s)} | ${schema.required?.includes(name) && s.default === undefined ? "yes" : ""} | ${s.default === undefined ? "" : `\`${JSON.stringify(s.default)}\``} | ${cell(s.description ?? "")} |`,
    ),
    "",
  ];
}

/** docs/skills.md, made from the registry (`npm run docs:skills`; a test fails when the file is stale). */
export function renderSkillsDoc(): string {
  const lines = [
    "# Skills and MCP tools",
    "",
    "Generated from the tool registry (`server/tools/registry.ts`) by `npm run docs:skills`; do not edit by hand.",
    "",
    "Every tool is served three ways with the same permissions, approvals and audit trail as the desk's pages:",
    "",
    "- **MCP**: `POST /api/mcp` (Streamable HTTP, stateless), tool name as below;",
    "- **skills**: `POST /api/skills/{skill}` with the arguments as a JSON object; `GET /api/skills` lists every skill",
    "  with its input and output JSON Schema;",
    "- both with `Authorization: Bearer <token>`, a staff access token made on the desk's Access tokens page",
    "  (`/settings/tokens`). A token acts with its owner's role at the time of the call; `read` tokens call read-only",
    "  tools only.",
    "",
    'Answers: 200 with the tool\'s output; 202 with `{status: "held", approvalId, message}` when an approval rule holds a',
    "write; errors as `{error, message, fieldErrors?}` with 400 (arguments), 401 (token), 403 (permission or scope), 404,",
    "422 (refused upstream), 429 (the token's rate limit; `Retry-After`), 502 (the upstream failed).",
    "",
    "| skill | MCP tool | permission | kind |",
    "|---|---|---|---|",
    ...TOOLS.map(
      (t) =>
        `| [\`${skillName(t)}\`](#${skillName(t)}) | \`${t.name}\` | \`${toolPermission(t)}\` | ${t.readOnly ? "read" : t.destructive ? "write (destructive)" : "write"} |`,
    ),
    "",
  ];
  for (const tool of TOOLS) {
    const { input } = toolJsonSchemas(tool);
    lines.push(
      `## ${skillName(tool)}`,
      "",
      `${tool.title} — MCP tool \`${tool.name}\`.`,
      "",
      tool.description,
      "",
      ...fields(input as Schema),
    );
  }
  return lines.join("\n");
}
