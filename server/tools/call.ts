import "server-only";
import { can } from "@/lib/auth/permissions";
import { isPendingApproval } from "@/lib/errors";
import type { TokenScope } from "@/lib/schemas/tokens";
import { fieldErrorsOf, runAction, type Caller } from "@/server/action-kit/define-action";
import { actionContext, performAudited } from "@/server/action-kit/perform";
import { appendAudit } from "@/server/audit/trail";
import { getDb } from "@/server/db";
import { logger } from "@/server/log";
import type { AuditInput } from "@/server/audit/entry";
import { isActionTool, type ActionTool, type Tool, type WorkTool } from "./tool";

/** Who calls a tool: the token's owner as they are now, the token's scopes, and the channel (in `meta`). */
export interface ToolCaller extends Caller {
  scopes: readonly TokenScope[];
}

export type ToolOutcome = { ok: true; data: unknown } | { ok: false; code: string; message: string; fieldErrors?: Record<string, string> };

/** A write held by an approval rule, as every channel answers it. */
export interface HeldAnswer {
  status: "held";
  approvalId: string;
  message: string;
}

/**
 * Calls one tool for one caller, on every channel: the token's scope, then the pages' own steps — permission,
 * zod input, approval policy, the work, one audit entry (actor, channel, token) whatever the outcome — and the
 * answer checked against the tool's output schema, so a client that validates it (MCP's does) gets what it was told.
 */
export async function callTool(tool: Tool, raw: unknown, caller: ToolCaller): Promise<ToolOutcome> {
  const needed: TokenScope = tool.readOnly ? "read" : "write";
  const action = isActionTool(tool) ? tool.action.name : `tools.${tool.name}`;
  const { staff, meta } = caller;
  const base = { actorId: staff.id, actorEmail: staff.email, actorRole: staff.role, action, ...meta, input: raw };

  if (!caller.scopes.includes(needed)) {
    await appendAudit(await getDb(), { ...base, outcome: "denied", errorCode: "INSUFFICIENT_SCOPE" });
    return {
      ok: false,
      code: "INSUFFICIENT_SCOPE",
      message: `This token may not ${needed === "write" ? "change anything" : "read"}: it needs the ${needed} scope.`,
    };
  }

  const answer = isActionTool(tool) ? await runActionTool(tool, raw, caller) : await runWorkTool(tool, raw, caller, base);
  if (!answer.ok) return answer;
  const checked = tool.output.safeParse(answer.data);
  if (!checked.success) {
    logger.error({ tool: tool.name, issues: checked.error.issues.slice(0, 5) }, "tool answer does not match its output schema");
    return { ok: false, code: "INTERNAL", message: "The desk could not answer this call. Nothing was changed by the answer; try again." };
  }
  return { ok: true, data: checked.data };
}

async function runActionTool(tool: ActionTool, raw: unknown, caller: ToolCaller): Promise<ToolOutcome> {
  const result = await runAction(tool.action, raw, caller);
  if (!result.ok)
    return { ok: false, code: result.code, message: result.serverError ?? "The action failed.", fieldErrors: result.fieldErrors };
  if (isPendingApproval(result.data)) {
    const held: HeldAnswer = { status: "held", approvalId: result.data.approvalId, message: result.data.message };
    return { ok: true, data: held };
  }
  return { ok: true, data: tool.present ? tool.present(result.data) : result.data };
}

async function runWorkTool(tool: WorkTool, raw: unknown, caller: ToolCaller, base: Omit<AuditInput, "outcome">): Promise<ToolOutcome> {
  const db = await getDb();
  if (!can(caller.staff, tool.permission)) {
    await appendAudit(db, { ...base, outcome: "denied", errorCode: "FORBIDDEN" });
    return { ok: false, code: "FORBIDDEN", message: "You do not have permission to do this." };
  }
  const parsed = tool.input.safeParse(raw ?? {});
  if (!parsed.success) {
    await appendAudit(db, { ...base, outcome: "failure", errorCode: "VALIDATION" });
    return { ok: false, code: "VALIDATION", message: "The tool's arguments are not valid.", fieldErrors: fieldErrorsOf(parsed.error) };
  }
  const ctx = actionContext(caller.staff, db, caller.meta);
  const done = await performAudited(ctx, {
    action: `tools.${tool.name}`,
    input: () => parsed.data,
    work: async () => ({ data: await tool.run(parsed.data, ctx) }),
  });
  return done.ok ? { ok: true, data: done.data } : { ok: false, code: done.code, message: done.userMessage, fieldErrors: done.fieldErrors };
}
