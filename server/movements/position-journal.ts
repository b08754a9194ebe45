import "server-only";
import { AppError } from "@/lib/errors";
import { compareDecimal, formatQuantity } from "@/lib/money";
import { positionJournalSchema, type PositionJournalRequest } from "@/lib/schemas/movements";
import type { ActionContext } from "@/server/action-kit/define-action";
import { sameNames, sendMovement, defineMovement } from "./operation";

/** Stock or option contracts (by OCC symbol) between two virtual accounts. */
export const positionJournal = defineMovement({
  kind: "POSITION_JOURNAL",
  action: "movements.position_journal",
  schema: positionJournalSchema,
  money: () => undefined,
  target: (r) => `account:${r.from_account}`,
  accounts: (r) => [r.from_account, r.to_account],
  summary: (r) =>
    `Position journal of ${formatQuantity(r.quantity)} ${r.symbol} (${r.market} ${r.instrument_type === "OPTION" ? "option" : "stock"}) from ${r.from_account} to ${r.to_account}`,
  check: (r, ctx) => requireHeldQuantity(ctx, r),
  send(r, ctx) {
    return sendMovement(ctx, {
      kind: "POSITION_JOURNAL",
      clientRequestId: r.client_request_id,
      fields: {
        from_account: r.from_account,
        to_account: r.to_account,
        account_id: r.from_account,
        instrument_type: r.instrument_type,
        market: r.market,
        symbol: r.symbol,
        quantity: r.quantity,
      },
      fieldMap: {
        ...sameNames(["from_account", "to_account", "instrument_type", "market", "symbol", "quantity"]),
        codes: { INSTRUMENT_NOT_FOUND: { field: "symbol", message: "The broker does not know this instrument" } },
      },
      send: () => ctx.broker.createPositionJournal(r),
    });
  },
});

/** Refuses, before sending, a position the source does not hold or a quantity above what it holds. */
async function requireHeldQuantity(ctx: ActionContext, r: PositionJournalRequest): Promise<void> {
  const positions = await ctx.broker.listPositions({ account_id: r.from_account });
  const held = positions.find(
    (p) => p.symbol === r.symbol && (p.instrument_type ?? "EQUITY") === r.instrument_type && (!p.market || p.market === r.market),
  );
  if (!held || compareDecimal(held.quantity, "0") <= 0) {
    const message = `The source account holds no ${r.symbol}`;
    throw new AppError("POSITION_NOT_HELD", message, message, { symbol: message });
  }
  if (compareDecimal(r.quantity, held.quantity) > 0) {
    const message = `More than held: the source account holds ${formatQuantity(held.quantity)} ${r.symbol}`;
    throw new AppError("INSUFFICIENT_POSITION", message, message, { quantity: message });
  }
}
