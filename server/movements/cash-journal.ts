import "server-only";
import { formatMoney } from "@/lib/money";
import { cashJournalSchema } from "@/lib/schemas/movements";
import { requireAvailableCash, sameNames, sendMovement, defineMovement } from "./operation";

/** Cash between the master account and a virtual account, or between two virtual accounts. */
export const cashJournal = defineMovement({
  kind: "CASH_JOURNAL",
  action: "movements.cash_journal",
  schema: cashJournalSchema,
  money: (r) => ({ currency: r.currency, amount: r.amount }),
  target: (r) => `account:${r.from_account}`,
  accounts: (r) => [r.from_account, r.to_account],
  summary: (r) => `Cash journal of ${formatMoney(r.amount, r.currency)} from ${r.from_account} to ${r.to_account}`,
  check: (r, ctx) => requireAvailableCash(ctx, r.from_account, r.currency, r.amount, "amount"),
  send(r, ctx) {
    return sendMovement(ctx, {
      kind: "CASH_JOURNAL",
      clientRequestId: r.client_request_id,
      fields: {
        from_account: r.from_account,
        to_account: r.to_account,
        account_id: r.from_account,
        amount: r.amount,
        currency: r.currency,
      },
      fieldMap: sameNames(["from_account", "to_account", "amount", "currency"]),
      send: () => ctx.broker.createCashJournal(r),
    });
  },
});
