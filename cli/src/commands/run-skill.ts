import { randomUUID } from "node:crypto";
import type { Context } from "../context";
import { CliError, deskError, EXIT, usageError } from "../errors";
import { progressBar } from "../output/progress";
import { forgetSkills } from "../skills/listing";
import { buildInput } from "../skills/schema-args";
import type { ToolCommand } from "../skills/plan";

/**
 * Running one skill: its input from the options, a client_request_id where the input has one (made here unless
 * given, the same on every retry of this run), `--dry-run` for writes, a confirmation for destructive skills,
 * then `POST /api/skills/{name}` and the answer printed; `--all` follows next_cursor page after page.
 */

export type RunFlags = {
  given: Record<string, string | string[] | boolean | undefined>;
  base: Record<string, unknown>;
  all: boolean;
  dryRun: boolean;
  yes: boolean;
};

const REDACTED = new Set(["authorization", "x-brokerdesk-signature"]);

/** 32 letters and digits: fits every client_request_id the desk takes. */
export const newClientRequestId = () => randomUUID().replaceAll("-", "");

export async function runSkill(ctx: Context, plan: ToolCommand, flags: RunFlags): Promise<void> {
  const { skill } = plan;
  const keyed = plan.specs.some((s) => s.property === "client_request_id");
  const input = buildInput(plan.specs, flags.given, flags.base, keyed ? ["client_request_id"] : []);
  if (keyed && input.client_request_id === undefined) input.client_request_id = newClientRequestId();
  if (plan.exportAll && ctx.globals.output === undefined && !ctx.io.env.BROKERDESK_OUTPUT) ctx.globals.output = "csv";
  const spec = { method: "POST" as const, path: `/api/skills/${encodeURIComponent(skill.name)}`, session: true, body: input };

  if (flags.dryRun) {
    const profile = ctx.requireProfile();
    const request = ctx.client(profile).prepare(spec);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, REDACTED.has(k) ? "<redacted>" : v]));
    ctx.io.stdout.write(
      `${JSON.stringify({ dry_run: true, skill: skill.name, method: request.method, url: request.url, headers, body: input }, null, 2)}\n`,
    );
    return;
  }

  const client = ctx.requireSession();
  if (skill.destructive && !flags.yes) await confirmDestructive(ctx, plan, input);
  if (keyed) ctx.note(`client_request_id ${String(input.client_request_id)}`);

  const retry = skill.read_only || keyed ? "safe" : "never";
  const call = async (body: Record<string, unknown>) => {
    let answer;
    try {
      answer = await client.send({ ...spec, body, retry });
    } catch (e) {
      throw keyed ? withRequestId(e, body.client_request_id) : e;
    }
    if (answer.status === 200 || answer.status === 202) return answer;
    if (answer.status === 404 && (answer.body as { error?: string })?.error === "NOT_FOUND" && /skill/i.test(JSON.stringify(answer.body)))
      forgetSkills(ctx.dir, ctx.profileName);
    const error = deskError(answer.status, answer.body);
    throw keyed ? withRequestId(error, body.client_request_id) : error;
  };

  if (flags.all) return printAllPages(ctx, plan, input, call);

  const answer = await call(input);
  ctx.print(answer.body, skill.output_schema);
  if (answer.status === 202) {
    const held = answer.body as { approvalId?: string; message?: string };
    ctx.note(`held for approval${held.approvalId ? ` (${held.approvalId})` : ""}: ${held.message ?? "a second person must approve it"}`);
    ctx.exitCode = EXIT.held;
    return;
  }
  const next = (answer.body as { next_cursor?: unknown })?.next_cursor;
  if (plan.paged && typeof next === "string" && next && ctx.format() === "table")
    ctx.note(`more rows: add --cursor ${next} for the next page, or --all for every page`);
}

async function printAllPages(
  ctx: Context,
  plan: ToolCommand,
  input: Record<string, unknown>,
  call: (body: Record<string, unknown>) => Promise<{ status: number; body: unknown }>,
): Promise<void> {
  const bar = progressBar(ctx.io.stderr, `${plan.path.join(" ")}:`);
  const rows: unknown[] = [];
  let first: Record<string, unknown> | undefined;
  let cursor = input.cursor;
  try {
    do {
      const answer = await call(cursor === undefined ? input : { ...input, cursor });
      const page = answer.body as { rows?: unknown[]; next_cursor?: string | null };
      first ??= page as Record<string, unknown>;
      rows.push(...(page.rows ?? []));
      bar.page(page.rows?.length ?? 0);
      cursor = page.next_cursor || undefined;
    } while (cursor !== undefined);
  } finally {
    bar.done();
  }
  ctx.print({ ...first, rows, next_cursor: null }, plan.skill.output_schema);
}

async function confirmDestructive(ctx: Context, plan: ToolCommand, input: Record<string, unknown>): Promise<void> {
  const prompter = ctx.prompter();
  if (!prompter.interactive)
    throw usageError(
      `${plan.path.join(" ")} is destructive: pass --yes to send it without asking.`,
      "Or run it on a terminal to be asked.",
    );
  ctx.note(`${plan.skill.title} on ${ctx.profile()?.desk} (profile ${ctx.profileName}):\n${JSON.stringify(input, null, 2)}`);
  if (!(await prompter.confirm("Send it?"))) throw new CliError("CANCELLED", "Nothing was sent.", EXIT.error);
}

function withRequestId(error: unknown, id: unknown): unknown {
  if (!(error instanceof CliError)) return error;
  return new CliError(error.code, error.message, error.exitCode, {
    ...error.details,
    client_request_id: id,
    hint: `${error.details.hint ? `${error.details.hint} ` : ""}To try again without acting twice, add --client-request-id ${String(id)}.`,
  });
}
