import type { Command } from "commander";
import { checkProfileName, normaliseDesk, sessionState } from "../config";
import type { Context } from "../context";
import { example } from "./examples";
import { usageError } from "../errors";
import { forgetSkills } from "../skills/listing";

/** `profile list|add|remove|use`: several desks (or keys) side by side; secrets are never printed. */

function list(ctx: Context): void {
  const config = ctx.config();
  const current = ctx.profileName;
  const rows = Object.entries(config.profiles).map(([name, p]) => ({
    name,
    current: name === current,
    desk: p.desk,
    access_key_id: p.access_key_id ?? null,
    staff: p.staff?.email ?? null,
    session: sessionState(p),
    expires_at: p.session_expires_at ?? null,
  }));
  ctx.print({ rows });
}

function add(ctx: Context, name: string, options: { desk: string; accessKey?: string; secretKey?: string; use?: boolean }): void {
  checkProfileName(name);
  const config = ctx.config();
  if (config.profiles[name]) throw usageError(`Profile "${name}" exists: remove it first, or log in with --profile ${name}.`);
  if ((options.accessKey === undefined) !== (options.secretKey === undefined))
    throw usageError("Give both --access-key and --secret-key, or neither (login asks for them).");
  config.profiles[name] = {
    desk: normaliseDesk(options.desk),
    ...(options.accessKey ? { access_key_id: options.accessKey, secret_key: options.secretKey } : {}),
  };
  if (options.use || !config.current) config.current = name;
  ctx.saveConfig();
  ctx.note(`Profile "${name}" added${config.current === name ? " and in use" : ""}: brokerdesk login --profile ${name}`);
}

function remove(ctx: Context, name: string): void {
  const config = ctx.config();
  if (!config.profiles[name]) throw usageError(`No profile named "${name}".`);
  delete config.profiles[name];
  if (config.current === name) config.current = undefined;
  ctx.saveConfig();
  forgetSkills(ctx.dir, name);
  ctx.note(`Profile "${name}" removed, with its keys and session.`);
}

function use(ctx: Context, name: string): void {
  const config = ctx.config();
  if (!config.profiles[name]) throw usageError(`No profile named "${name}".`, "brokerdesk profile list");
  config.current = name;
  ctx.saveConfig();
  ctx.note(`Using profile "${name}" (${config.profiles[name].desk}).`);
}

export function addProfileCommands(program: Command, ctx: Context): void {
  const profile = program
    .command("profile")
    .description("Named profiles: a desk, an access key and its session each (--profile or BROKERDESK_PROFILE picks one)");
  example(profile.command("list"), "brokerdesk profile list")
    .summary("every profile, the one in use, its desk and session")
    .action(() => list(ctx));
  example(profile.command("add"), "brokerdesk profile add staging --desk https://staging.desk.example.com --use")
    .summary("add a profile for a desk")
    .argument("<name>", "the profile's name")
    .requiredOption("--desk <url>", "the desk's URL")
    .option("--access-key <id>", "the access key id, bdak_…")
    .option("--secret-key <secret>", "the secret key, bdsk_…")
    .option("--use", "use it from now on")
    .action((name: string, options: { desk: string; accessKey?: string; secretKey?: string; use?: boolean }) => add(ctx, name, options));
  example(profile.command("remove"), "brokerdesk profile remove staging")
    .summary("remove a profile with its keys and session")
    .argument("<name>", "the profile's name")
    .action((name: string) => remove(ctx, name));
  example(profile.command("use"), "brokerdesk profile use prod")
    .summary("use a profile when no --profile is given")
    .argument("<name>", "the profile's name")
    .action((name: string) => use(ctx, name));
}
