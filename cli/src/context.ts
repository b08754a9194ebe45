import { type Config, configDir, type Env, type Profile, profileName, readConfig, sessionState, writeConfig } from "./config";
import { CliError, EXIT, hintFor } from "./errors";
import { DeskClient } from "./http";
import { chooseFormat, type Format, render } from "./output/render";
import { Prompter } from "./prompt";
import type { JsonSchema } from "./skills/schema-args";

/** What a command runs with: the streams, the environment, the config directory, the chosen profile and format. */

export type Out = { isTTY?: boolean; columns?: number; write(text: string): unknown };
export type Io = { stdout: Out; stderr: Out; stdin: NodeJS.ReadableStream & { isTTY?: boolean }; env: Env };

export type Globals = { profile?: string; output?: string };

export class Context {
  exitCode: number = EXIT.ok;
  globals: Globals = {};
  readonly dir: string;
  private configCache?: Config;
  private prompterCache?: Prompter;

  constructor(readonly io: Io) {
    this.dir = configDir(io.env);
  }

  config(): Config {
    this.configCache ??= readConfig(this.dir);
    return this.configCache;
  }

  saveConfig(): void {
    writeConfig(this.config(), this.dir);
  }

  get profileName(): string {
    return profileName(this.config(), this.globals.profile, this.io.env);
  }

  profile(): Profile | undefined {
    return this.config().profiles[this.profileName];
  }

  /** The profile with its access key, or an authentication error (exit 3) telling how to log in. */
  requireProfile(): Profile {
    const profile = this.profile();
    if (!profile?.access_key_id || !profile.secret_key)
      throw new CliError("NOT_LOGGED_IN", `Profile "${this.profileName}" has no access key.`, EXIT.auth, {
        hint: hintFor("NOT_LOGGED_IN"),
      });
    return profile;
  }

  /** A client for a profile whose session is still valid, else an authentication error (exit 3). */
  requireSession(): DeskClient {
    const profile = this.requireProfile();
    const state = sessionState(profile);
    if (state === "none")
      throw new CliError("NOT_LOGGED_IN", `Profile "${this.profileName}" is not logged in.`, EXIT.auth, { hint: hintFor("NOT_LOGGED_IN") });
    if (state === "expired")
      throw new CliError(
        "SESSION_EXPIRED",
        `The session of profile "${this.profileName}" expired at ${profile.session_expires_at}.`,
        EXIT.auth,
        {
          hint: hintFor("SESSION_EXPIRED"),
        },
      );
    return this.client(profile);
  }

  client(profile: Profile): DeskClient {
    return new DeskClient(profile, { onRetry: (attempt, reason) => this.note(`retrying (${reason}), attempt ${attempt + 1}`) });
  }

  format(): Format {
    return chooseFormat(this.globals.output, this.io.env, !!this.io.stdout.isTTY);
  }

  print(output: unknown, schema?: JsonSchema): void {
    this.io.stdout.write(render(output, this.format(), schema));
  }

  /** A line for the person at the terminal (stderr), never mixed into the data on stdout. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  prompter(): Prompter {
    this.prompterCache ??= new Prompter(this.io.stdin, this.io.stderr as NodeJS.WritableStream);
    return this.prompterCache;
  }

  close(): void {
    this.prompterCache?.close();
  }
}
