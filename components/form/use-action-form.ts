"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type DefaultValues, type FieldPath, type FieldValues, type Mode, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { ActionResult } from "@/lib/errors";
import "@/lib/schemas/messages";
import { FORM_NETWORK_ERROR, type FeedbackMessages } from "./action-feedback";
import { useAction } from "./use-action";

export interface ActionFormOptions<TValues extends FieldValues, TOutput, TData> extends FeedbackMessages<TData> {
  /** The resource's schema from `lib/schemas`: the same object the server action parses with. */
  schema: z.ZodType<TOutput, TValues>;
  defaultValues: DefaultValues<TValues>;
  /** The server action (or a call of it that adds ids); gets the values the schema parsed. */
  action: (values: TOutput) => Promise<ActionResult<TData>>;
  onSuccess?: (data: TData, form: UseFormReturn<TValues, unknown, TOutput>) => void | Promise<void>;
  onFailure?: (result: Extract<ActionResult<TData>, { ok: false }>) => void;
  /**
   * Runs on a valid submit instead of sending at once (e.g. a review step); call `submit(values)` to send.
   */
  onValid?: (values: TOutput) => void | Promise<void>;
  mode?: Mode;
}

/**
 * A react-hook-form form bound to one server action (model: dub's forms over next-safe-action): the schema is the
 * resolver, the action's field errors land on their fields (the first one focused), the form-level message is one
 * banner, a second submit while one is on its way does nothing, and a call that throws says the server could not
 * be reached (the entries are kept).
 */
export function useActionForm<TValues extends FieldValues, TOutput = TValues, TData = unknown>(
  options: ActionFormOptions<TValues, TOutput, TData>,
) {
  const {
    schema,
    defaultValues,
    action,
    onSuccess,
    onFailure,
    onValid,
    mode = "onSubmit",
    success,
    networkError = FORM_NETWORK_ERROR,
  } = options;
  const form = useForm<TValues, unknown, TOutput>({
    resolver: zodResolver(schema),
    defaultValues,
    mode,
  });
  const { run, busy, banner, setBanner } = useAction({ networkError });

  const submit = (values: TOutput) =>
    run(() => action(values), {
      success,
      // the form's own fields (their first segment: "legs.0.ratio" is the legs field's)
      shownOnForm: (name) => Object.hasOwn(defaultValues as object, name.split(".")[0]),
      onSuccess: (data) => onSuccess?.(data, form),
      onFailure: (result, fieldErrors) => {
        fieldErrors.forEach(([name, message], i) => form.setError(name as FieldPath<TValues>, { message }, { shouldFocus: i === 0 }));
        onFailure?.(result);
      },
    });

  const onSubmit = form.handleSubmit(async (values) => {
    await (onValid ?? submit)(values);
  });
  return { form, onSubmit, submit, banner, setBanner, busy: busy || form.formState.isSubmitting };
}
