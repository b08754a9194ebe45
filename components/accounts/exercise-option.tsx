"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { newClientId } from "@/lib/ids";
import { exerciseOption } from "@/server/actions/orders";
import { accountKeys } from "./query-keys";

type Kind = "EXERCISE" | "DO_NOT_EXERCISE";
/** The confirmation open: what it does, its one request id, and whether the operator was told it is out of the money. */
type Open = { kind: Kind; id: string; outOfMoney?: boolean };

/**
 * Exercise / Do not exercise for one option position: a confirmation with the number of contracts, then one call
 * whose client_request_id was made when the confirmation opened (a retry is the same request). A contract out of
 * the money is refused by the server's pre-trade check until the operator confirms it ("Exercise anyway").
 */
export function ExerciseOption({ accountId, symbol, held }: { accountId: string; symbol: string; held: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Open>();
  const [quantity, setQuantity] = useState(held);
  const { run, busy, banner, setBanner } = useAction({
    networkError: "The server could not be reached. Confirm again: it is the same request.",
  });
  const start = (kind: Kind) => {
    setBanner(undefined);
    setQuantity(held);
    setOpen({ kind, id: newClientId("ex") });
  };
  const confirm = () =>
    open &&
    void run(
      () =>
        exerciseOption({
          account_id: accountId,
          client_request_id: open.id,
          symbol,
          quantity,
          exercise_type: open.kind,
          confirm_out_of_money: !!open.outOfMoney,
        }),
      {
        success: (r) =>
          r.status === "FAILED"
            ? `Refused: ${r.reason || "the broker did not exercise"}`
            : open.kind === "EXERCISE"
              ? "Exercised."
              : "Marked: do not exercise.",
        onSuccess: async () => {
          setOpen(undefined);
          await queryClient.invalidateQueries({ queryKey: accountKeys.positions(accountId) });
          await queryClient.invalidateQueries({ queryKey: accountKeys.balance(accountId) });
        },
        onFailure: (r) => {
          if (r.code === "EXERCISE_OUT_OF_THE_MONEY") setOpen({ ...open, outOfMoney: true });
        },
      },
    );
  return (
    <div className="flex flex-col items-end gap-1" data-testid={`exercise-${symbol}`}>
      {open ? (
        <div className="flex items-center gap-1">
          <span className="text-xs">{open.kind === "EXERCISE" ? "Exercise" : "Do not exercise"}</span>
          <input
            aria-label="Contracts"
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
            className="h-7 w-14 rounded border border-slate-300 px-1 text-right text-xs tabular-nums"
          />
          <Button size="sm" variant={open.outOfMoney ? "danger" : "primary"} onClick={confirm} disabled={busy}>
            {busy ? "Sending…" : open.outOfMoney ? "Exercise anyway" : "Confirm"}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setOpen(undefined)} disabled={busy}>
            Cancel
          </Button>
        </div>
      ) : (
        <div className="flex gap-1">
          <Button size="sm" variant="secondary" onClick={() => start("EXERCISE")}>
            Exercise
          </Button>
          <Button size="sm" variant="ghost" onClick={() => start("DO_NOT_EXERCISE")}>
            Do not exercise
          </Button>
        </div>
      )}
      <FormBanner banner={banner} />
    </div>
  );
}
