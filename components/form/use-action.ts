"use client";
import { unstable_rethrow } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import type { ActionResult } from "@/lib/errors";
import { attemptAction, createInFlightGuard, feedbackOf, type Banner, type FeedbackMessages } from "./action-feedback";

export interface RunOptions<T> extends FeedbackMessages<T> {
  /** After a success, before the guard lets the next call through (invalidate queries, navigate, reset…). */
  onSuccess?: (data: T) => void | Promise<void>;
  /** After a failure the action answered (not a network error). */
  onFailure?: (result: Extract<ActionResult<T>, { ok: false }>, fieldErrors: [string, string][]) => void;
}

/**
 * Runs server actions from buttons and forms, one at a time, with one banner for the outcome (the
 * `actionMessage` text, or the network-error message when the call itself threw). `run` resolves to the action's
 * result, or `undefined` when skipped (one already in flight) or unreachable.
 */
export function useAction(defaults: { networkError?: string } = {}) {
  const guard = useRef<ReturnType<typeof createInFlightGuard>>(null);
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState<Banner>();

  const run = useCallback(
    async <T>(call: () => Promise<ActionResult<T>>, options: RunOptions<T> = {}): Promise<ActionResult<T> | undefined> => {
      guard.current ??= createInFlightGuard();
      const attempt = await guard.current.run(async () => {
        setBusy(true);
        setBanner(undefined);
        try {
          const outcome = await attemptAction(call, unstable_rethrow);
          const feedback = feedbackOf(outcome, { networkError: defaults.networkError, ...options });
          if (outcome.kind === "result") {
            if (outcome.result.ok) await options.onSuccess?.(outcome.result.data);
            else options.onFailure?.(outcome.result, feedback.fieldErrors);
          }
          setBanner(feedback.banner);
          return outcome.kind === "result" ? outcome.result : undefined;
        } finally {
          setBusy(false);
        }
      });
      return attempt.ran ? attempt.value : undefined;
    },
    [defaults.networkError],
  );

  return { run, busy, banner, setBanner };
}
