import "server-only";
import { formatMoney } from "@/lib/money";
import { instantFundingSchema } from "@/lib/schemas/movements";
import { requireVirtualAccount, sendAccountMovement } from "./account-movement";
import { requireAvailableCash, defineMovement } from "./operation";

/**
 * A deposit into or a withdrawal from a virtual account (the master account advances deposits and takes
 * withdrawals back). A withdrawal above the account's withdrawable cash is refused before anything is sent.
 */
export const instantFunding = defineMovement({
  kind: "INSTANT_FUNDING",
  action: "movements.instant_funding",
  schema: instantFundingSchema,
  money: (r) => ({ currency: r.currency, amount: r.amount }),
  approvalAction: (r) => `movements.instant_funding.${r.type}`,
  target: (r) => `account:${r.account_id}`,
  accounts: (r) => [r.account_id],
  summary: (r) =>
    `${r.type === "DEPOSIT" ? "Deposit" : "Withdrawal"} of ${formatMoney(r.amount, r.currency)} ${r.type === "DEPOSIT" ? "into" : "from"} ${r.account_id}`,
  async check(r, ctx) {
    await requireVirtualAccount(r.account_id, "Instant funding is for virtual accounts, not the master account");
    if (r.type === "WITHDRAWAL") await requireAvailableCash(ctx, r.account_id, r.currency, r.amount, "amount", "withdrawable cash");
  },
  send(r, ctx) {
    return sendAccountMovement(ctx, "INSTANT_FUNDING", r, ["account_id", "type", "amount", "currency"], () =>
      ctx.broker.createInstantFunding(r),
    );
  },
});
