import "server-only";
import type { Queryable } from "@/server/db/engine";
import { business } from "../errors";
import { lockCash } from "../ledger";
import { cash, Decimal } from "../money";

/**
 * Checks and reserves `amount`; 417 INSUFFICIENT_BUYING_POWER when the account cannot cover it. One statement
 * (sandbox.hold_cash, migrations 0113 and 0117): the balance row locked, buyingPower's sum, and the hold when it is covered.
 */
export async function hold(
  tx: Queryable,
  account: { account_id: string; account_type: string; account_number: string },
  currency: string,
  amount: Decimal,
  at: Date,
): Promise<void> {
  if (amount.lte(0)) return;
  const { rows } = await tx.query<{ power: string }>("SELECT sandbox.hold_cash($1, $2, $3, $4, $5)::text AS power", [
    account.account_id,
    currency,
    amount.toFixed(),
    at,
    account.account_type === "MARGIN",
  ]);
  const power = new Decimal(rows[0].power);
  if (power.lt(amount)) throw insufficientBuyingPower(account, currency, power, amount);
}

export const insufficientBuyingPower = (account: { account_number: string }, currency: string, power: Decimal, amount: Decimal) =>
  business(
    "INSUFFICIENT_BUYING_POWER",
    `Account ${account.account_number} has ${currency} ${cash(power)} buying power; the order needs ${cash(amount)}.`,
  );

export async function adjustHeld(
  tx: Queryable,
  accountId: string,
  currency: string,
  delta: Decimal.Value,
  at: Date,
  locked = false,
): Promise<void> {
  const d = new Decimal(delta);
  if (d.isZero()) return;
  if (!locked) await lockCash(tx, [[accountId, currency]], at);
  await tx.query(
    "UPDATE sandbox.cash_balances SET held_amount = greatest(held_amount + $3, 0), updated_at = $4 WHERE account_id = $1 AND currency = $2",
    [accountId, currency, d.toFixed(), at],
  );
}

/** Shares or contracts of a symbol held, minus what other open SELL orders already promise. */
export async function sellable(
  tx: Queryable,
  accountId: string,
  instrumentType: string,
  symbol: string,
  exceptOrderId?: string,
): Promise<Decimal> {
  const { rows } = await tx.query<{ held: string | null; promised: string | null }>(
    `SELECT (SELECT quantity FROM sandbox.positions WHERE account_id = $1 AND instrument_type = $2 AND symbol = $3) AS held,
            (SELECT sum(coalesce(quantity, 0) - filled_quantity) FROM sandbox.orders
              WHERE account_id = $1 AND instrument_type = $2 AND symbol = $3 AND side = 'SELL' AND status IN ('SUBMITTED', 'PARTIAL_FILLED')
                AND order_id <> coalesce($4, '')) AS promised`,
    [accountId, instrumentType, symbol, exceptOrderId ?? null],
  );
  return new Decimal(rows[0]?.held ?? 0).minus(rows[0]?.promised ?? 0);
}
