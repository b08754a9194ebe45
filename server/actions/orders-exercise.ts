"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { optionExerciseSchema } from "@/lib/schemas/option-exercise";
import { defineAction } from "@/server/action-kit/define-action";
import { toActionError } from "@/server/action-kit/upstream-error";
import { AppError } from "@/lib/errors";
import { outOfMoneyExercise } from "@/server/orders/pre-trade";

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
    if (input.exercise_type === "EXERCISE" && !input.confirm_out_of_money) {
      const out = await outOfMoneyExercise(input.symbol, broker);
      if (out) throw new AppError("EXERCISE_OUT_OF_THE_MONEY", out, `${out} Confirm to exercise it anyway.`);
    }
    const { confirm_out_of_money: _confirmed, ...request } = input;
    try {
      const r = await broker.exerciseOption(request);
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
