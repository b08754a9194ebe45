import "server-only";
import type { Queryable } from "@/server/db/engine";
import { idFrom, isoDate } from "./ids";
import { Decimal } from "./money";

/**
 * The ledger: the only code that changes cash, positions and activities. Every function runs inside the caller's
 * transaction. Balance rows are locked (SELECT ... FOR UPDATE, in a fixed order) before they are checked and moved,
 * so concurrent movements on a PostgreSQL server serialise per account and never deadlock.
 * Part 2 (orders) posts fills with postCash + postPosition + recordActivity(TRADE).
 */
export interface ActivityInput {
  /** Unique per movement leg, e.g. `${journalId}:out`; the activity id is derived from it. */
  key: string;
  type: string;
  subType: string;
  market?: string | null;
  symbol?: string | null;
  description?: string;
  refType?: string;
  refId?: string;
}

export interface CashRow {
  account_id: string;
  currency: string;
  cash_balance: string;
  unsettled_cash: string;
  held_amount: string;
  frozen_amount: string;
}

/**
 * Locks the balance rows of these (account, currency) pairs, creating missing ones at zero. One statement whatever the
 * number of pairs: the upsert inserts missing rows and, through its no-op DO UPDATE, row-locks existing ones (as
 * SELECT ... FOR UPDATE would) and returns the latest committed version. Rows are touched in sorted key order, so
 * lockers never deadlock.
 */
export async function lockCash(tx: Queryable, pairs: [account: string, currency: string][], at: Date): Promise<Map<string, CashRow>> {
  const keys = [...new Map(pairs.map((p) => [`${p[0]}|${p[1]}`, p])).values()].sort((a, b) =>
    `${a[0]}|${a[1]}` < `${b[0]}|${b[1]}` ? -1 : 1,
  );
  const accounts = keys.map((k) => k[0]);
  const currencies = keys.map((k) => k[1]);
  const { rows } = await tx.query<CashRow>(
    `INSERT INTO sandbox.cash_balances AS b (account_id, currency, updated_at)
     SELECT a, c, $3 FROM unnest($1::text[], $2::text[]) AS k(a, c) ORDER BY a, c
     ON CONFLICT (account_id, currency) DO UPDATE SET account_id = b.account_id RETURNING b.*`,
    [accounts, currencies, at],
  );
  return new Map(rows.map((r) => [`${r.account_id}|${r.currency}`, r]));
}

/** Cash that can leave the account: settled cash minus what open orders hold and what is frozen. */
export function availableCash(row: CashRow): Decimal {
  return new Decimal(row.cash_balance).minus(row.unsettled_cash).minus(row.held_amount).minus(row.frozen_amount);
}

export async function recordActivity(
  tx: Queryable,
  accountId: string,
  a: ActivityInput & { currency: string; netAmount: Decimal.Value; quantity?: Decimal.Value | null },
  at: Date,
): Promise<string> {
  const id = idFrom(`activity:${a.key}`);
  await tx.query(
    `INSERT INTO sandbox.activities (id, account_id, activity_type, activity_sub_type, currency, market, symbol, quantity,
       net_amount, trade_date, biz_time, description, ref_type, ref_id)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)`,
    [
      id,
      accountId,
      a.type,
      a.subType,
      a.currency,
      a.market ?? null,
      a.symbol ?? null,
      a.quantity == null ? null : new Decimal(a.quantity).toFixed(),
      new Decimal(a.netAmount).toFixed(),
      isoDate(at),
      at,
      a.description ?? null,
      a.refType ?? null,
      a.refId ?? null,
    ],
  );
  return id;
}

/** Moves cash (signed amount) on a locked balance row and records the activity, if one is given. */
export async function postCash(
  tx: Queryable,
  p: { accountId: string; currency: string; amount: Decimal.Value; activity: ActivityInput | null },
  at: Date,
): Promise<void> {
  const amount = new Decimal(p.amount).toFixed();
  const update =
    "UPDATE sandbox.cash_balances SET cash_balance = cash_balance + $3, updated_at = $4 WHERE account_id = $1 AND currency = $2";
  if (!p.activity) {
    await tx.query(update, [p.accountId, p.currency, amount, at]);
    return;
  }
  // The balance and its activity in one statement (one round trip): the update as a data-modifying CTE.
  const a = p.activity;
  await tx.query(
    `WITH moved AS (${update} RETURNING 1)
     INSERT INTO sandbox.activities (id, account_id, activity_type, activity_sub_type, currency, market, symbol, quantity,
       net_amount, trade_date, biz_time, description, ref_type, ref_id)
     VALUES ($5,$1,$6,$7,$2,$8,$9,NULL,$3,$10,$4,$11,$12,$13)`,
    [
      p.accountId,
      p.currency,
      amount,
      at,
      idFrom(`activity:${a.key}`),
      a.type,
      a.subType,
      a.market ?? null,
      a.symbol ?? null,
      isoDate(at),
      a.description ?? null,
      a.refType ?? null,
      a.refId ?? null,
    ],
  );
}

export interface PositionRow {
  position_id: string;
  account_id: string;
  instrument_type: string;
  market: string;
  symbol: string;
  currency: string;
  quantity: string;
  cost_price: string;
}

export async function lockPosition(
  tx: Queryable,
  accountId: string,
  instrumentType: string,
  symbol: string,
): Promise<PositionRow | undefined> {
  const { rows } = await tx.query<PositionRow>(
    "SELECT * FROM sandbox.positions WHERE account_id = $1 AND instrument_type = $2 AND symbol = $3 FOR UPDATE",
    [accountId, instrumentType, symbol],
  );
  return rows[0];
}

/**
 * Adds (positive) or removes (negative) quantity. Incoming quantity is averaged into the cost price; a position that
 * reaches zero is deleted. Callers check that enough is held before removing.
 */
export async function postPosition(
  tx: Queryable,
  p: {
    accountId: string;
    instrumentType: string;
    market: string;
    symbol: string;
    currency: string;
    quantity: Decimal.Value;
    price: Decimal.Value;
    activity: ActivityInput | null;
  },
  at: Date,
): Promise<void> {
  const delta = new Decimal(p.quantity);
  const held = await lockPosition(tx, p.accountId, p.instrumentType, p.symbol);
  const before = new Decimal(held?.quantity ?? 0);
  const after = before.plus(delta);
  if (held && after.isZero()) {
    await tx.query("DELETE FROM sandbox.positions WHERE position_id = $1", [held.position_id]);
  } else if (held) {
    const cost =
      delta.gt(0) && after.gt(0)
        ? before.times(held.cost_price).plus(delta.times(p.price)).div(after).toDecimalPlaces(8)
        : new Decimal(held.cost_price);
    await tx.query("UPDATE sandbox.positions SET quantity = $2, cost_price = $3, updated_at = $4 WHERE position_id = $1", [
      held.position_id,
      after.toFixed(),
      cost.toFixed(),
      at,
    ]);
  } else {
    await tx.query(
      `INSERT INTO sandbox.positions (position_id, account_id, instrument_type, market, symbol, currency, quantity, cost_price, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
      [
        idFrom(`position:${p.accountId}:${p.instrumentType}:${p.symbol}`),
        p.accountId,
        p.instrumentType,
        p.market,
        p.symbol,
        p.currency,
        after.toFixed(),
        new Decimal(p.price).toFixed(),
        at,
      ],
    );
  }
  if (p.activity) {
    await recordActivity(
      tx,
      p.accountId,
      { ...p.activity, currency: p.currency, netAmount: 0, quantity: delta, market: p.market, symbol: p.symbol },
      at,
    );
  }
}
