import { Command, CommanderError, Option } from "commander";
import { sessionState } from "./config";
import { Context, type Io } from "./context";
import { CliError, EXIT } from "./errors";
import { addAuthCommands } from "./commands/auth";
import { addCompletionCommands } from "./commands/completion";
import { overview } from "./commands/examples";
import { addProfileCommands } from "./commands/profile";
import { addStatusCommands } from "./commands/status";
import { addToolCommands } from "./commands/tools";
import { planToolCommands } from "./skills/plan";
import { fetchSkills, readCachedSkills, type Skill } from "./skills/listing";

/**
 * `brokerdesk`: the fixed commands (login, logout, whoami, profile, status, skills, completion) and one command a
 * skill of the desk's listing. Data on stdout, errors as one JSON document on stderr, the exit code of the contract.
 */

const VERSION = "0.1.0";
/** Commands that run without the desk's skills listing. */
const FIXED = new Set(["login", "logout", "whoami", "profile", "status", "skills", "completion"]);

const EXIT_HELP = `
Output: a table on a terminal, JSON otherwise; --output json|csv|table (or BROKERDESK_OUTPUT). Errors: JSON on stderr.
Exit codes: 0 ok · 1 error (upstream, server, network) · 2 usage · 3 authentication · 4 refused (permission or
scope) · 5 held for approval.`;

function processIo(): Io {
  // A reader that stops early (`brokerdesk orders export | head`) is not an error.
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw e;
    });
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** The global options and the command word, read before the program exists (which commands it has depends on them). */
export function preParse(argv: string[]): { profile?: string; output?: string; refresh: boolean; help: boolean; command?: string } {
  const out: ReturnType<typeof preParse> = { refresh: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") break;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg];
    if (flag === "--profile") out.profile = inline ?? argv[++i];
    else if (flag === "--output" || flag === "-o") out.output = inline ?? argv[++i];
    else if (flag === "--refresh-skills") out.refresh = true;
    else if (flag === "-h" || flag === "--help") out.help = true;
    else if (!arg.startsWith("-") && out.command === undefined) {
      out.command = arg;
      if (arg === "help") out.help = true;
    }
  }
  return out;
}

function buildProgram(ctx: Context): Command {
  const program = new Command("brokerdesk")
    .description("Brokerdesk for staff on the command line: the desk's tools, signed with your access key.")
    .version(VERSION)
    .option("--profile <name>", "the profile to use (BROKERDESK_PROFILE; `brokerdesk profile use` sets the default)")
    .addOption(
      new Option("-o, --output <format>", "json, csv or table (default: table on a terminal, else JSON)").choices(["json", "csv", "table"]),
    )
    .option("--refresh-skills", "read the desk's skills listing again before running (it is kept for an hour)")
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      outputError: () => {},
    });
  program.hook("preAction", (_root, action) => {
    const globals = action.optsWithGlobals() as { profile?: string; output?: string };
    ctx.globals = { profile: globals.profile, output: globals.output };
  });
  addAuthCommands(program, ctx);
  addProfileCommands(program, ctx);
  addStatusCommands(program, ctx, new Set([...FIXED, "help"]));
  addCompletionCommands(program, ctx);
  return program;
}

type Loaded = { skills?: Skill[]; problem?: unknown };

/** The listing: the profile's cached copy while fresh, else the desk's (a stale copy when the desk cannot be read). */
async function loadSkills(ctx: Context, refresh: boolean, network: boolean): Promise<Loaded> {
  const profile = ctx.profile();
  if (!profile) return {};
  const cached = readCachedSkills(ctx.dir, ctx.profileName, profile.desk);
  if (cached?.fresh && !refresh) return { skills: cached.skills };
  if (!network || sessionState(profile) !== "valid") return { skills: cached?.skills };
  try {
    return { skills: await fetchSkills(ctx.client(profile), ctx.dir, ctx.profileName) };
  } catch (e) {
    if (!cached) return { problem: e };
    ctx.note(`warning: could not read the desk's skills (${e instanceof Error ? e.message : String(e)}); using the copy kept earlier`);
    return { skills: cached.skills };
  }
}

function forgetSession(ctx: Context): void {
  const profile = ctx.profile();
  if (!profile?.session) return;
  delete profile.session;
  delete profile.session_expires_at;
  ctx.saveConfig();
}

function report(ctx: Context, error: unknown): number {
  const original = error;
  if (error instanceof CommanderError) {
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT.ok;
    if (error.code === "commander.help") return EXIT.usage;
    error = new CliError("USAGE", error.message.replace(/^error: /, ""), EXIT.usage, { hint: "add --help for usage" });
  }
  if (!(error instanceof CliError)) error = new CliError("INTERNAL", error instanceof Error ? error.message : String(error), EXIT.error);
  const e = error as CliError;
  // The desk ended the session (expired, the key revoked, the person disabled): the profile forgets it.
  if (e.code === "SESSION_EXPIRED" && e.details.status === 401) forgetSession(ctx);
  if (e.code === "INTERNAL" && ctx.io.env.BROKERDESK_DEBUG && original instanceof Error) ctx.io.stderr.write(`${original.stack}\n`);
  ctx.io.stderr.write(`${JSON.stringify(e.toJSON())}\n`);
  return e.exitCode;
}

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const ctx = new Context(io);
  try {
    let early = preParse(argv);
    // Completing a line: the profile is the one that line names.
    if (early.command === "__complete") early = { ...preParse(argv.slice(argv.indexOf("--") + 1)), command: "__complete" };
    ctx.globals = { profile: early.profile, output: early.output };
    const program = buildProgram(ctx);
    if (!early.command || !FIXED.has(early.command)) {
      const loaded = await loadSkills(ctx, early.refresh, early.command !== "__complete");
      if (loaded.skills) addToolCommands(program, planToolCommands(loaded.skills, new Set([...FIXED, "help"])), ctx);
      else if (early.command && early.command !== "__complete" && !early.help) {
        if (loaded.problem) throw loaded.problem;
        ctx.requireSession();
      }
      program.addHelpText(
        "after",
        loaded.skills
          ? ""
          : `\nThe desk's commands (accounts, orders, movements, approvals, …) are listed once you are logged in: brokerdesk login\n`,
      );
    }
    program.addHelpText("after", () => `\nEvery command, with an example:\n${overview(program)}\n${EXIT_HELP}\n`);
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    return report(ctx, error);
  } finally {
    ctx.close();
  }
}
