// A brand shared by every copy of this module: Next can load it in several server bundles, each with its own class,
// so `instanceof` alone would miss an error thrown by another bundle's copy.
const BRAND = Symbol.for("brokerdesk.AppError");

/**
 * The one error family: a code, an internal message and a message that is safe to show a user; field errors
 * (dotted paths, as react-hook-form names fields) let an upstream rule land on the right input; the upstream request
 * id, when an upstream answer is behind it. Every error the app throws on purpose is one (BrokerError,
 * NotFoundError, …), so the action wrapper and the route helper map errors with `isAppError` alone.
 */
export class AppError extends Error {
  readonly [BRAND] = true;
  readonly requestId?: string;

  constructor(
    readonly code: string,
    message: string,
    readonly userMessage: string = message,
    readonly fieldErrors?: Record<string, string>,
    opts: { requestId?: string; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.requestId = opts.requestId;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError || (typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[BRAND] === true);
}

/** A failure's message that is safe to show a user: an AppError's own, or `fallback`. */
export function userMessageOf(e: unknown, fallback: string): string {
  return isAppError(e) ? e.userMessage : fallback;
}

/** A background run's failure as staff read it when the error is not the desk's own (its text stays in the log). */
export const RUN_FAILED_MESSAGE = "The run failed; the error is in the server's log.";

/**
 * What a background run (statements, reports, reconciliation, the activities sweep) stores and shows staff as its
 * failure: an AppError's safe message, else RUN_FAILED_MESSAGE. The raw error (SQL, a driver's or the network's text)
 * goes to the log only, never into a row a page serves.
 */
export function runFailureMessage(e: unknown): string {
  return userMessageOf(e, RUN_FAILED_MESSAGE);
}

/** A read a page can do without: its value, or the message that says why it is missing. */
export async function tryRead<T>(read: Promise<T>, fallback: string): Promise<{ value?: T; problem?: string }> {
  try {
    return { value: await read };
  } catch (e) {
    return { problem: userMessageOf(e, fallback) };
  }
}

/** "This does not exist", thrown by domain code (an unknown account, say): route handlers answer 404 with the message, pages call notFound(). */
export class NotFoundError extends AppError {
  constructor(userMessage = "This does not exist.", message = userMessage) {
    super("NOT_FOUND", message, userMessage);
    this.name = "NotFoundError";
  }
}

export function isNotFound(e: unknown): e is NotFoundError {
  return isAppError(e) && e.name === "NotFoundError";
}

/**
 * What an action with an approval step returns when its policy held it: the work did not run; a request for a
 * second person's approval (`approvalId`) was made instead. It is a success (nothing failed), so check
 * `isPendingApproval(result.data)` before reading the data.
 */
export interface PendingApproval {
  pending: true;
  approvalId: string;
  /** Safe to show, e.g. "Sent for approval: a second operator must approve transfers above 10,000 USD." */
  message: string;
}

export function isPendingApproval(data: unknown): data is PendingApproval {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as { pending?: unknown }).pending === true &&
    typeof (data as PendingApproval).approvalId === "string"
  );
}

export type ActionResult<T> =
  { ok: true; data: T } | { ok: false; code: string; serverError: string; fieldErrors?: Record<string, string> };

/** The field-error key of a rule about the whole input rather than one field (how the action wrapper names it). */
export const FORM_ERROR_KEY = "_form";

/**
 * The one helper that turns an action result into a message for a toast or a form banner: the success text, or
 * the form-level rule that failed, or the server's safe message.
 */
export function actionMessage(result: ActionResult<unknown>, success = "Saved."): string {
  return result.ok ? success : (result.fieldErrors?.[FORM_ERROR_KEY] ?? result.serverError);
}
