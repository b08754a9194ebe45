import "server-only";
import { AppError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { fxRequestSchema } from "@/lib/schemas/movements";
import { getMasterAccount } from "@/server/accounts/master";
import { requireAvailableCash, sameNames, sendMovement, defineMovement } from "./operation";

/** A currency conversion at the omnibus master account, at the upstream's rate when it executes. */
export const fxRequest = defineMovement({
  kind: "FX_EXCHANGE",
  action: "movements.fx_request",
  schema: fxRequestSchema,
  money: (r) => ({ currency: r.from_currency, amount: r.from_amount }),
  target: (r) => `account:${r.account_id}`,
  accounts: (r) => [r.account_id],
  summary: (r) => `FX request: ${formatMoney(r.from_amount, r.from_currency)} into ${r.to_currency} at the master account ${r.account_id}`,
  async send(r, ctx) {
    ctx.audit.target = this.target(r);
    const master = await getMasterAccount();
    if (!master.accountId || (r.account_id !== master.accountId && r.account_id !== master.accountNumber)) {
      const message = "FX requests are made at the master account; use an instant exchange for a virtual account";
      throw new AppError("NOT_THE_MASTER_ACCOUNT", message, message, { account_id: message });
    }
    await requireAvailableCash(ctx, r.account_id, r.from_currency, r.from_amount, "from_amount");
    return sendMovement(ctx, {
      kind: "FX_EXCHANGE",
      clientRequestId: r.client_request_id,
      fields: { account_id: r.account_id, from_currency: r.from_currency, to_currency: r.to_currency, from_amount: r.from_amount },
      fieldMap: sameNames(["account_id", "from_currency", "to_currency", "from_amount"]),
      send: () => ctx.broker.createFxRequest(r),
    });
  },
});
