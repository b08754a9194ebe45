"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { optionExerciseSchema } from "@/lib/schemas/option-exercise";
import { defineAction } from "@/server/action-kit/define-action";
import { toActionError } from "@/server/action-kit/upstream-error";

/**
 * Exercises held option contracts, or records "do not exercise" (keeps them from automatic exercise at expiry).
 * The button made its client_request_id when it was shown: a retry is the same request upstream.
 */
export const exerciseOption = defineAction({
  name: "orders.exercise",
  permission: "orders:place",
  input: optionExerciseSchema,
  async run(input, { audit, broker }) {
    audit.target = `account:${input.account_id}`;
    try {
      const r = await broker.exerciseOption(input);
      revalidatePath(`/accounts/${input.account_id}`);
      return { status: r.status ?? "", reason: r.reason ?? "", exercise_id: r.exercise_id ?? "" };
    } catch (error) {
      throw toActionError(error, {
        fields: { codes: { INSUFFICIENT_POSITION: { field: "quantity" } }, field: (p) => (p === "quantity" ? "quantity" : undefined) },
        idempotent: true,
      });
    }
  },
});
