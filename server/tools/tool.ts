import "server-only";
import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import type { ActionContext, ActionDefinition } from "@/server/action-kit/define-action";

/**
 * A tool: one thing an assistant (or a script) may do at the desk, described once and served by every channel —
 * the MCP server (`/api/mcp`), the skills endpoints (`/api/skills/{name}`) and the command line. A tool calls what
 * the pages call, with its caller's own permissions: a write is the pages' own action definition, so approval rules
 * hold it and the audit trail records it with the staff member behind the token and the channel.
 */
interface ToolBase<I extends z.ZodType, O extends z.ZodType> {
  /** The MCP tool name (snake_case; the spec's names for the spec's tools). */
  name: string;
  /** The skills endpoint's name, for the tools that have one (the spec's 18). */
  skill?: string;
  title: string;
  /** Written for a model: what it does, what it returns, when to use it. */
  description: string;
  input: I;
  output: O;
  /** Changes nothing anywhere (MCP's readOnlyHint; a read scope suffices). */
  readOnly: boolean;
  /** May destroy or cancel something (MCP's destructiveHint; the command line asks before it). */
  destructive?: boolean;
}

/** A tool whose work is its own (a read, or an upstream call with no page action): audited as `tools.{name}`. */
export interface WorkTool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends ToolBase<I, O> {
  permission: Permission;
  run(input: z.output<I>, ctx: ActionContext): Promise<z.input<O>>;
}

/** A tool that is a page's action: the same definition, permission, approval policy and audit name. */
export interface ActionTool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends ToolBase<I, O> {
  action: ActionDefinition<I, unknown>;
  /** The action's result as the tool answers it (its output schema's shape); absent: the result as is. */
  present?(data: unknown): z.input<O>;
}

export type Tool = WorkTool | ActionTool;

export const isActionTool = (tool: Tool): tool is ActionTool => "action" in tool;

export const toolPermission = (tool: Tool): Permission => (isActionTool(tool) ? tool.action.permission : tool.permission);

/** Declares a tool of its own work (typed input and output). */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(tool: WorkTool<I, O>): Tool {
  return tool as unknown as Tool;
}

/** Declares a tool that runs one of the pages' actions (`server/*\/actions.ts`). */
export function actionTool<I extends z.ZodType, O extends z.ZodType>(
  tool: Omit<ActionTool<I, O>, "input" | "readOnly"> & { action: ActionDefinition<I, unknown> },
): Tool {
  return { ...tool, input: tool.action.input, readOnly: false } as unknown as Tool;
}
