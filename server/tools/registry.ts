import "server-only";
import { z } from "zod";
import { DESK_TOOLS } from "./desk";
import { FUTURES_TOOLS } from "./spec/futures";
import { MARKET_TOOLS } from "./spec/market";
import { WATCHLIST_TOOLS } from "./spec/watchlists";
import type { Tool } from "./tool";

/**
 * The one tool registry: what the MCP server lists, what the skills endpoints serve, what the command line's
 * commands are made from. A new tool is a new entry here; every channel has it at once.
 */
export const TOOLS: readonly Tool[] = [...MARKET_TOOLS, ...FUTURES_TOOLS, ...WATCHLIST_TOOLS, ...DESK_TOOLS];

/** The skills endpoint name of a tool: the spec's for the spec's tools, else the tool's name in kebab case. */
export const skillName = (tool: Tool): string => tool.skill ?? tool.name.replaceAll("_", "-");

export const toolNamed = (name: string): Tool | undefined => TOOLS.find((t) => t.name === name);
export const toolForSkill = (skill: string): Tool | undefined => TOOLS.find((t) => skillName(t) === skill);

type JsonSchema = Record<string, unknown>;
const schemas = new Map<Tool, { input: JsonSchema; output: JsonSchema }>();

/** A tool's input (what a caller may send, defaults optional) and output as JSON Schema, made once. */
export function toolJsonSchemas(tool: Tool): { input: JsonSchema; output: JsonSchema } {
  let s = schemas.get(tool);
  if (!s) {
    const json = (schema: z.ZodType, io: "input" | "output") => {
      const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });
      return rest as JsonSchema;
    };
    s = { input: json(tool.input, "input"), output: json(tool.output, "output") };
    schemas.set(tool, s);
  }
  return s;
}
