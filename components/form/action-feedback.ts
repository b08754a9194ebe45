import { actionMessage, FORM_ERROR_KEY, type ActionResult } from "@/lib/errors";

/**
 * The pure part of running a server action from the browser, shared by every form and action button (and
 * unit-tested in Node): one call at a time, a thrown call reported as "unreachable", and one way to turn the
 * outcome into field errors plus a single banner. React glue: `use-action.ts`, `use-action-form.ts`.
 */

export type BannerTone = "error" | "success" | "info";
export interface Banner {
  tone: BannerTone;
  text: string;
}

/** What a person is told when the call itself failed: the server did not answer, so nothing is known to be done. */
export const NETWORK_ERROR = "The server could not be reached. Check the connection and try again.";
export const CHECK_FIELDS = "Check the highlighted fields.";
export const FORM_NETWORK_ERROR = "The server could not be reached. Your entries are kept: submit again.";

export type ActionOutcome<T> = { kind: "result"; result: ActionResult<T> } | { kind: "unreachable"; error: unknown };

/**
 * Calls an action. A throw (network down, server restarted, connection dropped) becomes "unreachable"; `passThrough`
 * sees the error first and rethrows what must not be caught (Next's redirect and notFound signals).
 */
export async function attemptAction<T>(
  call: () => Promise<ActionResult<T>>,
  passThrough?: (error: unknown) => void,
): Promise<ActionOutcome<T>> {
  try {
    return { kind: "result", result: await call() };
  } catch (error) {
    passThrough?.(error);
    return { kind: "unreachable", error };
  }
}

export interface FeedbackMessages<T> {
  /** The success banner; none when the page moves on by itself. */
  success?: string | ((data: T) => string);
  networkError?: string;
  /**
   * Whether the form shows a field (dotted name) where its error can be highlighted; default: every field. An error
   * of a field the form does not show is said in the banner, never behind "Check the highlighted fields."
   */
  shownOnForm?: (name: string) => boolean;
}

/** What to show for an outcome: the errors to put on fields (dotted names) and the one banner. */
export interface Feedback {
  fieldErrors: [name: string, message: string][];
  banner?: Banner;
}

export function feedbackOf<T>(outcome: ActionOutcome<T>, messages: FeedbackMessages<T> = {}): Feedback {
  if (outcome.kind === "unreachable") return { fieldErrors: [], banner: { tone: "error", text: messages.networkError ?? NETWORK_ERROR } };
  const { result } = outcome;
  if (result.ok) {
    const text = typeof messages.success === "function" ? messages.success(result.data) : messages.success;
    return { fieldErrors: [], banner: text ? { tone: "success", text: actionMessage(result, text) } : undefined };
  }
  const fieldErrors = Object.entries(result.fieldErrors ?? {}).filter(([name]) => name !== FORM_ERROR_KEY);
  const text = actionMessage(result);
  const shown = messages.shownOnForm ?? (() => true);
  const visible = fieldErrors.filter(([name]) => shown(name));
  const hidden = fieldErrors.filter(([name]) => !shown(name)).map(([, message]) => message);
  // A message already on a field is not repeated in the banner: the banner points at the fields instead; the
  // errors no field of the form can show are said in it.
  const pointsAtFields = visible.length > 0 && (text === CHECK_FIELDS || visible.some(([, message]) => message === text));
  const head = pointsAtFields ? CHECK_FIELDS : text === CHECK_FIELDS ? "" : text;
  return { fieldErrors, banner: { tone: "error", text: [head, ...hidden].filter(Boolean).join(" ") || text } };
}

export interface InFlightGuard {
  readonly busy: boolean;
  /** Runs `task` unless one is already running; a second call meanwhile does nothing and reports `ran: false`. */
  run<T>(task: () => Promise<T>): Promise<{ ran: false } | { ran: true; value: T }>;
}

/** Against double submit: a second click or Enter while the first call is on its way adds nothing. */
export function createInFlightGuard(): InFlightGuard {
  let running = false;
  return {
    get busy() {
      return running;
    },
    async run(task) {
      if (running) return { ran: false };
      running = true;
      try {
        return { ran: true, value: await task() };
      } finally {
        running = false;
      }
    },
  };
}
