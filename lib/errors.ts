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
