"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { DefaultValues, FieldValues, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { useActionForm } from "@/components/form/use-action-form";
import type { ActionResult, PendingApproval } from "@/lib/errors";
import { newClientId } from "@/lib/ids";
import type { MovementRequestKind } from "@/lib/schemas/movements";

/** What a movement action answers: the status the upstream gave, or a hold for a second person's approval. */
export interface MovementSent {
  kind: MovementRequestKind;
  client_request_id: string;
  status: string;
  reason?: string;
}
export type MovementOutcome = MovementSent | PendingApproval;

export interface MovementFormOptions<V extends FieldValues, O> {
  kind: MovementRequestKind;
  schema: z.ZodType<O, V>;
  /** The blank form around its client_request_id. */
  blank: (clientRequestId: string) => DefaultValues<V>;
  action: (request: O) => Promise<ActionResult<MovementOutcome>>;
  /**
   * Checks what the schema cannot (available cash, held quantity) before the review; puts its own field errors
   * and returns false to stay on the form.
   */
  check?: (request: O, form: UseFormReturn<V, unknown, O>) => boolean;
}

/**
 * A movement form's life: fill in → review (exactly what will be sent) → send → the upstream's answer. The
 * client_request_id is made once when the form opens and kept across retries (a network error or an outage:
 * Send again is the same request and cannot apply twice); only "New" after a submission makes another.
 */
export function useMovementForm<V extends FieldValues, O extends { client_request_id: string }>(options: MovementFormOptions<V, O>) {
  const { kind, schema, blank, action, check } = options;
  const [clientRequestId, setClientRequestId] = useState(() =>
    newClientId(
      kind === "FX_EXCHANGE"
        ? "fx"
        : kind
            .split("_")
            .map((w) => w[0])
            .join("")
            .toLowerCase(),
    ),
  );
  const [review, setReview] = useState<O>();
  const [outcome, setOutcome] = useState<MovementOutcome>();
  const queryClient = useQueryClient();
  const kit = useActionForm<V, O, MovementOutcome>({
    schema,
    defaultValues: blank(clientRequestId),
    action,
    networkError: "The server could not be reached. Send again when it is back: it is the same request, so it cannot be applied twice.",
    onValid: (values) => {
      if (check && !check(values, kit.form)) return;
      kit.setBanner(undefined);
      setReview(values);
    },
    onSuccess: (data) => {
      setOutcome(data);
      // Balances and holdings moved: what the form shows next is read again.
      void queryClient.invalidateQueries({ queryKey: ["movement-forms", "cash"] });
      void queryClient.invalidateQueries({ queryKey: ["movement-forms", "positions"] });
    },
    onFailure: () => setReview(undefined),
  });

  const send = () => (review ? kit.submit(review) : undefined);
  const edit = () => setReview(undefined);
  const startNew = () => {
    const next = newClientId(clientRequestId.split("_")[0]);
    setClientRequestId(next);
    setReview(undefined);
    setOutcome(undefined);
    kit.setBanner(undefined);
    kit.form.reset(blank(next));
  };
  return { ...kit, kind, clientRequestId, review, outcome, send, edit, startNew };
}

export type MovementFormState<V extends FieldValues, O extends { client_request_id: string }> = ReturnType<typeof useMovementForm<V, O>>;
