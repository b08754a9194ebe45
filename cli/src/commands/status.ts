import type { Command } from "commander";
import { sessionState } from "../config";
import type { Context } from "../context";
import { example } from "./examples";
import { CliError, deskError, EXIT, usageError } from "../errors";
import { fetchSkills, readCachedSkills } from "../skills/listing";
import { planToolCommands } from "../skills/plan";

/** `status` (the desk's health, the session, the event stream) and `skills` (the listing the commands come from). */

async function status(ctx: Context): Promise<void> {
  const profile = ctx.profile();
  if (!profile) throw usageError(`No profile named "${ctx.profileName}".`, "brokerdesk login, or brokerdesk profile add");
  const client = ctx.client(profile);
  let health: { status?: string; database?: string; error?: string };
  try {
    const answer = await client.send({ method: "GET", path: "/api/health", retry: "safe" });
    health = (answer.body as object) ?? {};
    if (answer.status !== 200) health = { status: "error", ...health };
  } catch (e) {
    health = { status: "unreachable", error: e instanceof Error ? e.message : String(e) };
  }
  const session = sessionState(profile);
  let stream: unknown = null;
  if (session === "valid") {
    const skill = readCachedSkills(ctx.dir, ctx.profileName, profile.desk)?.skills.find((s) => s.tool === "get_stream_health");
    try {
      const answer = await client.send({
        method: "POST",
        path: `/api/skills/${skill?.name ?? "get-stream-health"}`,
        body: {},
        session: true,
        retry: "safe",
      });
      stream = answer.status === 200 ? answer.body : deskError(answer.status, answer.body).toJSON();
    } catch (e) {
      stream = e instanceof CliError ? e.toJSON() : { error: String(e) };
    }
  }
  ctx.print({
    profile: ctx.profileName,
    desk: profile.desk,
    health: health.status ?? "unknown",
    database: health.database ?? null,
    session,
    expires_at: profile.session_expires_at ?? null,
    staff: profile.staff?.email ?? null,
    stream,
  });
  if (health.status !== "ok") ctx.exitCode = EXIT.error;
}

async function skills(ctx: Context, options: { refresh?: boolean }, fixed: Set<string>): Promise<void> {
  const client = ctx.requireSession();
  const cached = readCachedSkills(ctx.dir, ctx.profileName, client.desk);
  const list = !options.refresh && cached?.fresh ? cached.skills : await fetchSkills(client, ctx.dir, ctx.profileName);
  const rows = planToolCommands(list, fixed).map((p) => ({
    command: p.path.join(" "),
    skill: p.skill.name,
    kind: p.skill.read_only ? "read" : p.skill.destructive ? "write (destructive)" : "write",
    title: p.skill.title,
  }));
  ctx.print({ rows });
}

export function addStatusCommands(program: Command, ctx: Context, fixed: Set<string>): void {
  example(program.command("status"), "brokerdesk status --profile prod")
    .summary("the desk's health, the profile's session and the event stream")
    .action(() => status(ctx));
  example(program.command("skills"), "brokerdesk skills --refresh")
    .summary("the desk's skills and the command of each (--refresh reads the listing again)")
    .option("--refresh", "read the desk's listing again now (it is kept for an hour)")
    .action((options: { refresh?: boolean }) => skills(ctx, options, fixed));
}
