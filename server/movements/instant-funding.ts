import "server-only";
import { AppError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { instantFundingSchema } from "@/lib/schemas/movements";
import { getMasterAccount } from "@/server/accounts/master";
import { requireAvailableCash, sameNames, sendMovement, defineMovement } from "./operation";

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
  async send(r, ctx) {
    ctx.audit.target = this.target(r);
    const master = await getMasterAccount();
    if (master.accountId && (r.account_id === master.accountId || r.account_id === master.accountNumber)) {
      const message = "Instant funding is for virtual accounts, not the master account";
      throw new AppError("NOT_A_VIRTUAL_ACCOUNT", message, message, { account_id: message });
    }
    if (r.type === "WITHDRAWAL") await requireAvailableCash(ctx, r.account_id, r.currency, r.amount, "amount", "withdrawable cash");
    return sendMovement(ctx, {
      kind: "INSTANT_FUNDING",
      clientRequestId: r.client_request_id,
      fields: { account_id: r.account_id, type: r.type, amount: r.amount, currency: r.currency },
      fieldMap: sameNames(["account_id", "type", "amount", "currency"]),
      send: () => ctx.broker.createInstantFunding(r),
    });
  },
});
