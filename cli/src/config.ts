import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { CliError, EXIT, usageError } from "./errors";

/**
 * Named profiles, one a desk and an access key with its session, in one JSON file readable by its owner only
 * (0600 in a 0700 directory): `$BROKERDESK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/brokerdesk`, else `~/.config/brokerdesk`.
 */

/** The environment the CLI reads (process.env, or a test's own). */
export type Env = Record<string, string | undefined>;

export type Staff = { email: string; name?: string | null; role: string };

export type Profile = {
  desk: string;
  access_key_id?: string;
  secret_key?: string;
  session?: string;
  session_expires_at?: string;
  staff?: Staff;
  scopes?: string[];
};

export type Config = { current?: string; profiles: Record<string, Profile> };

export const DEFAULT_PROFILE = "default";
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function configDir(env: Env = process.env): string {
  if (env.BROKERDESK_CONFIG_DIR) return path.resolve(env.BROKERDESK_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(homedir(), ".config");
  return path.join(base, "brokerdesk");
}

const configFile = (dir: string) => path.join(dir, "config.json");

/** Makes the directory (0700) if needed, and narrows it to 0700 if it was wider. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Writes a file whole (a temporary file renamed over it), readable by its owner only. */
export function writePrivateFile(file: string, text: string): void {
  ensurePrivateDir(path.dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

export function readConfig(dir = configDir()): Config {
  let text: string;
  try {
    text = readFileSync(configFile(dir), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { profiles: {} };
    throw e;
  }
  try {
    const parsed = JSON.parse(text) as Config;
    return { current: parsed.current, profiles: parsed.profiles ?? {} };
  } catch {
    throw new CliError("BAD_CONFIG", `${configFile(dir)} is not valid JSON.`, EXIT.error, { hint: "Fix or remove the file." });
  }
}

export function writeConfig(config: Config, dir = configDir()): void {
  writePrivateFile(configFile(dir), `${JSON.stringify(config, null, 2)}\n`);
}

export function checkProfileName(name: string): string {
  if (!NAME.test(name)) throw usageError(`"${name}" is not a profile name: letters, digits, ".", "_" and "-", up to 64.`);
  return name;
}

/** The profile a command uses: `--profile`, else BROKERDESK_PROFILE, else the one `profile use` chose, else "default". */
export function profileName(config: Config, flag: string | undefined, env: Env = process.env): string {
  return checkProfileName(flag || env.BROKERDESK_PROFILE || config.current || DEFAULT_PROFILE);
}

/** The desk's base URL as stored: http(s), no trailing slash. */
export function normaliseDesk(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`"${url}" is not a URL (e.g. https://desk.example.com).`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw usageError(`The desk's URL must be http or https: ${url}`);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
}

/** Whether the profile holds a session that has not expired yet. */
export function sessionState(profile: Profile | undefined, now = Date.now()): "none" | "expired" | "valid" {
  if (!profile?.session) return "none";
  const expires = profile.session_expires_at ? Date.parse(profile.session_expires_at) : NaN;
  return Number.isFinite(expires) && expires <= now ? "expired" : "valid";
}
