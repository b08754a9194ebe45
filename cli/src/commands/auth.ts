import type { Command } from "commander";
import { normaliseDesk, type Profile, type Staff } from "../config";
import type { Context } from "../context";
import { example } from "./examples";
import { deskError, usageError } from "../errors";
import { forgetSkills } from "../skills/listing";

/**
 * `login`: the access key pair made on the desk's /settings/cli page and the authenticator's current code give a
 * session (12 hours by default), kept in the profile; `logout` forgets it; `whoami` asks the desk who it is.
 */

type LoginOptions = { desk?: string; accessKey?: string; secretKey?: string; code?: string };
type LoginAnswer = { session: string; expires_at: string; staff: Staff; scopes: string[] };

const DEFAULT_DESK = "http://localhost:3000";

async function login(ctx: Context, options: LoginOptions): Promise<void> {
  const env = ctx.io.env;
  const prompter = ctx.prompter();
  const stored = ctx.profile();
  const desk = normaliseDesk(
    options.desk ?? env.BROKERDESK_DESK_URL ?? stored?.desk ?? ((await prompter.ask(`Desk URL [${DEFAULT_DESK}]: `)) || DEFAULT_DESK),
  );
  const sameDesk = stored?.desk === desk;
  const accessKey =
    options.accessKey ??
    env.BROKERDESK_ACCESS_KEY ??
    (sameDesk ? stored?.access_key_id : undefined) ??
    (await prompter.ask("Access key id: "));
  if (!/^bdak_[A-Za-z0-9_-]+$/.test(accessKey)) throw usageError(`"${accessKey}" is not an access key id (bdak_…).`);
  const keptSecret = sameDesk && stored?.access_key_id === accessKey ? stored.secret_key : undefined;
  const secretKey = options.secretKey ?? env.BROKERDESK_SECRET_KEY ?? keptSecret ?? (await prompter.ask("Secret key: ", { secret: true }));
  if (!/^bdsk_[A-Za-z0-9_-]+$/.test(secretKey)) throw usageError("That is not a secret key (bdsk_…).");
  const code = (options.code ?? (await prompter.ask("Authenticator code: "))).replace(/\s+/g, "");
  if (!/^\d{6}$/.test(code)) throw usageError("The code is the 6 digits your authenticator shows.");

  const candidate: Profile = { desk, access_key_id: accessKey, secret_key: secretKey };
  const answer = await ctx.client(candidate).send({ method: "POST", path: "/api/cli/login", body: { code }, retry: "never" });
  if (answer.status !== 200) throw deskError(answer.status, answer.body);
  const { session, expires_at, staff, scopes } = answer.body as LoginAnswer;

  const config = ctx.config();
  const name = ctx.profileName;
  config.profiles[name] = { ...candidate, session, session_expires_at: expires_at, staff, scopes };
  config.current ??= name;
  ctx.saveConfig();
  if (!sameDesk) forgetSkills(ctx.dir, name);
  ctx.note(`Logged in to ${desk} as ${staff.email} (${staff.role}) until ${expires_at}; profile "${name}".`);
  ctx.print({ profile: name, desk, email: staff.email, name: staff.name ?? null, role: staff.role, scopes, expires_at });
}

function logout(ctx: Context, options: { forgetKey?: boolean }): void {
  const config = ctx.config();
  const name = ctx.profileName;
  const profile = config.profiles[name];
  if (!profile) throw usageError(`No profile named "${name}".`);
  const { session: _session, session_expires_at: _expires, staff: _staff, scopes: _scopes, ...rest } = profile;
  config.profiles[name] = options.forgetKey ? { desk: rest.desk } : rest;
  ctx.saveConfig();
  forgetSkills(ctx.dir, name);
  ctx.note(`Logged out of profile "${name}"${options.forgetKey ? "; its access key is forgotten too" : ""}.`);
}

async function whoami(ctx: Context): Promise<void> {
  const client = ctx.requireSession();
  const answer = await client.send({ method: "GET", path: "/api/cli/whoami", session: true, retry: "safe" });
  if (answer.status !== 200) throw deskError(answer.status, answer.body);
  ctx.print({ profile: ctx.profileName, desk: client.desk, ...(answer.body as object) });
}

export function addAuthCommands(program: Command, ctx: Context): void {
  example(program.command("login"), "brokerdesk login --desk https://desk.example.com --profile prod")
    .summary("log in with an access key and your authenticator's code")
    .description(
      "Log in: the access key pair made on the desk's /settings/cli page (asked for unless given or kept in the profile) and the " +
        "current code of the authenticator enrolled on /settings/security. The session is kept in the profile.",
    )
    .option("--desk <url>", "the desk's URL (BROKERDESK_DESK_URL)")
    .option("--access-key <id>", "the access key id, bdak_… (BROKERDESK_ACCESS_KEY)")
    .option("--secret-key <secret>", "the secret key, bdsk_… (BROKERDESK_SECRET_KEY; better typed at the prompt)")
    .option("--code <code>", "the authenticator's 6-digit code")
    .action((options: LoginOptions) => login(ctx, options));

  example(program.command("logout"), "brokerdesk logout --profile prod")
    .summary("forget the profile's session")
    .option("--forget-key", "also forget the profile's access key pair")
    .action((options: { forgetKey?: boolean }) => logout(ctx, options));

  example(program.command("whoami"), "brokerdesk whoami")
    .summary("who the profile's session acts as, its scopes and expiry")
    .action(() => whoami(ctx));
}
