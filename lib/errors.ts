/**
 * One error type with a code, an internal message and a message that is safe to show a user.
 * Field errors (dotted paths, as react-hook-form names fields) let an upstream rule land on the right input.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly userMessage: string = message,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/**
 * "This does not exist", thrown by domain code (an unknown account, say): route handlers answer 404 with the
 * message, pages call notFound(). Recognised by name too, as a class copy of another server bundle may throw it.
 */
export class NotFoundError extends AppError {
  constructor(userMessage = "This does not exist.", message = userMessage) {
    super("NOT_FOUND", message, userMessage);
    this.name = "NotFoundError";
  }
}

export function isNotFound(e: unknown): e is NotFoundError {
  return e instanceof NotFoundError || (e instanceof Error && e.name === "NotFoundError");
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
  return typeof data === "object" && data !== null && (data as { pending?: unknown }).pending === true && typeof (data as PendingApproval).approvalId === "string";
}

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; code: string; serverError: string; fieldErrors?: Record<string, string> };

/** The field-error key of a rule about the whole input rather than one field (how the action wrapper names it). */
export const FORM_ERROR_KEY = "_form";

/**
 * The one helper that turns an action result into a message for a toast or a form banner: the success text, or
 * the form-level rule that failed, or the server's safe message.
 */
export function actionMessage(result: ActionResult<unknown>, success = "Saved."): string {
  return result.ok ? success : (result.fieldErrors?.[FORM_ERROR_KEY] ?? result.serverError);
}
