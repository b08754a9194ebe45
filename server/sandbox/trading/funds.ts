import "server-only";
import type { Queryable } from "@/server/db/engine";
import { business } from "../errors";
import { availableCash, lockCash } from "../ledger";
import { cash, Decimal } from "../money";

/**
 * Buying power and cash holds of open orders. CASH accounts may spend available cash (settled, not held, not
 * frozen). MARGIN accounts add the loan value of their long stock positions in that currency
 * (market value × (1 − margin_requirement_long)), and a BUY holds only cost × margin_requirement_long; a SHORT
 * holds proceeds × (margin_requirement_short − 1). Holds sit in cash_balances.held_amount until fills release them.
 */
export async function buyingPower(
  tx: Queryable,
  account: { account_id: string; account_type: string },
  currency: string,
  at: Date,
): Promise<Decimal> {
  const row = (await lockCash(tx, [[account.account_id, currency]], at)).get(`${account.account_id}|${currency}`)!;
  let power = availableCash(row);
  if (account.account_type === "MARGIN") {
    const { rows } = await tx.query<{ loan: string | null }>(
      `SELECT sum(p.quantity * i.last_price * (1 - coalesce((i.profile->>'margin_requirement_long')::numeric, 1))) AS loan
         FROM sandbox.positions p JOIN sandbox.instruments i ON i.market = p.market AND i.symbol = p.symbol
        WHERE p.account_id = $1 AND p.currency = $2 AND p.instrument_type = 'EQUITY' AND p.quantity > 0`,
      [account.account_id, currency],
    );
    power = power.plus(rows[0]?.loan ?? 0);
  }
  return power;
}

/**
 * Checks and reserves `amount`; 417 INSUFFICIENT_BUYING_POWER when the account cannot cover it. One statement
 * (sandbox.hold_cash, migration 0113): the balance row locked, buyingPower's sum, and the hold when it is covered.
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
