import "server-only";
import { AppError } from "@/lib/errors";
import { compareDecimal, convertAt, formatMoney } from "@/lib/money";
import { instantExchangeSchema, type InstantExchangeRequest } from "@/lib/schemas/movements";
import type { ActionContext } from "@/server/action-kit/define-action";
import { requireVirtualAccount, sendAccountMovement } from "./account-movement";
import { requireAvailableCash, defineMovement } from "./operation";

/**
 * A conversion at a virtual account for a `to_amount` the form computed from the live quote. The server reads the
 * rate again and refuses a to_amount the current quote no longer gives (the quote the person saw went stale).
 */
export const instantExchange = defineMovement({
  kind: "INSTANT_EXCHANGE",
  action: "movements.instant_exchange",
  schema: instantExchangeSchema,
  money: (r) => ({ currency: r.from_currency, amount: r.from_amount }),
  target: (r) => `account:${r.account_id}`,
  accounts: (r) => [r.account_id],
  summary: (r) =>
    `Instant exchange of ${formatMoney(r.from_amount, r.from_currency)} into ${formatMoney(r.to_amount, r.to_currency)} at ${r.account_id}`,
  async check(r, ctx) {
    await requireVirtualAccount(r.account_id, "Instant exchange is for virtual accounts; use an FX request at the master account");
    await requireCurrentQuote(ctx, r);
    await requireAvailableCash(ctx, r.account_id, r.from_currency, r.from_amount, "from_amount");
  },
  send(r, ctx) {
    return sendAccountMovement(ctx, "INSTANT_EXCHANGE", r, ["account_id", "from_currency", "to_currency", "from_amount", "to_amount"], () =>
      ctx.broker.createInstantExchange(r),
    );
  },
});

/** The live rate, read again: the to_amount must be what it gives now (rounded down), or nothing is sent. */
async function requireCurrentQuote(ctx: ActionContext, r: InstantExchangeRequest): Promise<void> {
  const live = await ctx.broker.getFxRate({ from_currency: r.from_currency, to_currency: r.to_currency });
  const now = convertAt(r.from_amount, live.fx_rate, r.to_currency);
  if (compareDecimal(now, r.to_amount) !== 0) {
    const message = `The quote is stale: at the current rate ${live.fx_rate} the amount is ${formatMoney(now, r.to_currency)}. Review the new amount and send again.`;
    throw new AppError("STALE_QUOTE", message, message, { to_amount: message });
  }
}
