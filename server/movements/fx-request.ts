import "server-only";
import { formatMoney } from "@/lib/money";
import { fxRequestSchema } from "@/lib/schemas/movements";
import { requireMasterAccount, sendAccountMovement } from "./account-movement";
import { requireAvailableCash, defineMovement } from "./operation";

/** A currency conversion at the omnibus master account, at the upstream's rate when it executes. */
export const fxRequest = defineMovement({
  kind: "FX_EXCHANGE",
  action: "movements.fx_request",
  schema: fxRequestSchema,
  money: (r) => ({ currency: r.from_currency, amount: r.from_amount }),
  target: (r) => `account:${r.account_id}`,
  accounts: (r) => [r.account_id],
  summary: (r) => `FX request: ${formatMoney(r.from_amount, r.from_currency)} into ${r.to_currency} at the master account ${r.account_id}`,
  async check(r, ctx) {
    await requireMasterAccount(r.account_id, "FX requests are made at the master account; use an instant exchange for a virtual account");
    await requireAvailableCash(ctx, r.account_id, r.from_currency, r.from_amount, "from_amount");
  },
  send(r, ctx) {
    return sendAccountMovement(ctx, "FX_EXCHANGE", r, ["account_id", "from_currency", "to_currency", "from_amount"], () =>
      ctx.broker.createFxRequest(r),
    );
  },
});
