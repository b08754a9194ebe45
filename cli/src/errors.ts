/** The CLI's exit codes (the contract's): what a script branches on. */
export const EXIT = {
  ok: 0,
  /** Upstream, server or network failure. */
  error: 1,
  /** Bad arguments. */
  usage: 2,
  /** No or expired session, wrong code, revoked key, bad signature. */
  auth: 3,
  /** 403: the role's permission or the key's scope. */
  refused: 4,
  /** 202: an approval rule holds the write. */
  held: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What every failure becomes: one JSON document on stderr and an exit code. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode,
    readonly details: { status?: number; fieldErrors?: Record<string, string[]>; hint?: string; [key: string]: unknown } = {},
  ) {
    super(message);
  }

  toJSON() {
    const extra = Object.fromEntries(Object.entries(this.details).filter(([, v]) => v !== undefined));
    return { error: this.code, message: this.message, ...extra };
  }
}

export const usageError = (message: string, hint?: string) => new CliError("USAGE", message, EXIT.usage, { hint });

const HINTS: Record<string, string> = {
  UNKNOWN_KEY: "The access key is unknown or revoked: create one on the desk's /settings/cli page, then run `brokerdesk login`.",
  BAD_SIGNATURE: "The secret key does not match the access key: run `brokerdesk login` with the pair the desk showed.",
  STALE_TIMESTAMP: "This computer's clock is more than 5 minutes off: set it right and try again.",
  REPLAYED_NONCE: "The desk saw this request before: try again.",
  NOT_ENROLLED: "Enrol an authenticator on the desk's /settings/security page first.",
  WRONG_CODE: "Enter the current 6-digit code of your authenticator (each code works once).",
  RATE_LIMITED: "Too many attempts: wait and try again.",
  NOT_LOGGED_IN: "Run `brokerdesk login`.",
  SESSION_EXPIRED: "Run `brokerdesk login` again.",
};

/** The exit code of a desk answer's HTTP status (2xx other than 202 is 0). */
export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 202) return EXIT.held;
  if (status < 400) return EXIT.ok;
  if (status === 400) return EXIT.usage;
  if (status === 401) return EXIT.auth;
  if (status === 403) return EXIT.refused;
  return EXIT.error;
}

/** A refusal or failure answered by the desk (`{error, message, fieldErrors?}`) as a CliError. */
export function deskError(status: number, body: unknown): CliError {
  const b = (body && typeof body === "object" ? body : {}) as { error?: unknown; message?: unknown; fieldErrors?: unknown };
  const code = typeof b.error === "string" ? b.error : `HTTP_${status}`;
  const message = typeof b.message === "string" ? b.message : `The desk answered ${status}.`;
  const fieldErrors = b.fieldErrors && typeof b.fieldErrors === "object" ? (b.fieldErrors as Record<string, string[]>) : undefined;
  let hint = HINTS[code];
  if (!hint && status === 401) hint = HINTS.SESSION_EXPIRED;
  if (!hint && status === 403) hint = "Your role, or the access key's scope (read keys cannot write), does not allow this.";
  return new CliError(code, message, exitCodeOfStatus(status), { status, fieldErrors, hint });
}

export const hintFor = (code: string): string | undefined => HINTS[code];
