import "server-only";
import type { Queryable, Tx } from "@/server/db/engine";
import { creditBlocked, debitBlocked, findAccount, findAccounts, masterAccount, type AccountRef } from "./account-store";
import { business } from "./errors";
import { convert, INSTANT_TOLERANCE, midRate } from "./fx";
import { availableCash, lockCash, lockPosition, postCash, postPosition } from "./ledger";
import { cash, Decimal, qty, type Currency } from "./money";
import { claim, finish, type MovementKind, type RequestRow, type RequestStatus } from "./requests";

/**
 * Funding, FX and journal requests: SUBMITTED, then COMPLETED, REJECTED (a rule such as not enough cash or an
 * account status refused it), FAILED (securities not held) or CANCELED (control call while held).
 * Balances move only in the step that marks the request COMPLETED.
 */
type Outcome = { status: RequestStatus; reason?: string; result?: Record<string, unknown> };
type Processor = (tx: Tx, row: RequestRow, at: Date) => Promise<Outcome>;

export const ID_FIELD: Record<MovementKind, string> = {
  FX_EXCHANGE: "fx_id",
  INSTANT_EXCHANGE: "instant_exchange_id",
  INSTANT_FUNDING: "instant_funding_id",
  CASH_JOURNAL: "journal_id",
  POSITION_JOURNAL: "journal_id",
};

const rejected = (reason: string): Outcome => ({ status: "REJECTED", reason });
const short = (who: AccountRef, currency: string, have: Decimal, need: Decimal) =>
  rejected(`Insufficient ${currency} cash in account ${who.account_number}: available ${cash(have)}, required ${cash(need)}.`);

/** The two sides of a journal, read in one statement. */
async function pairOf(db: Queryable, fromId: string, toId: string): Promise<[AccountRef, AccountRef]> {
  const found = await findAccounts(db, [fromId, toId]);
  const get = (id: string) => {
    const a = found.get(id);
    if (!a) throw business("ACCOUNT_NOT_FOUND", `Account ${id} does not exist.`);
    return a;
  };
  return [get(fromId), get(toId)];
}

async function accountOf(db: Queryable, id: string): Promise<AccountRef> {
  const a = await findAccount(db, id);
  if (!a) throw business("ACCOUNT_NOT_FOUND", `Account ${id} does not exist.`);
  return a;
}

/** Moves cash between two accounts after checking statuses and the sender's available cash. */
async function transferCash(
  tx: Tx,
  row: RequestRow,
  at: Date,
  from: AccountRef,
  to: AccountRef,
  currency: string,
  amount: Decimal,
  sub: { out: [string, string]; in: [string, string] },
): Promise<Outcome | undefined> {
  const blocked = debitBlocked(from) ?? creditBlocked(to);
  if (blocked) return rejected(blocked);
  const rows = await lockCash(
    tx,
    [
      [from.account_id, currency],
      [to.account_id, currency],
    ],
    at,
  );
  const have = availableCash(rows.get(`${from.account_id}|${currency}`)!);
  if (have.lt(amount)) return short(from, currency, have, amount);
  const ref = { refType: row.kind, refId: row.id };
  await postCash(
    tx,
    {
      accountId: from.account_id,
      currency,
      amount: amount.neg(),
      activity: { key: `${row.id}:out:${currency}`, type: sub.out[0], subType: sub.out[1], ...ref },
    },
    at,
  );
  await postCash(
    tx,
    {
      accountId: to.account_id,
      currency,
      amount,
      activity: { key: `${row.id}:in:${currency}`, type: sub.in[0], subType: sub.in[1], ...ref },
    },
    at,
  );
  return undefined;
}

const PROCESSORS: Record<MovementKind, Processor> = {
  async CASH_JOURNAL(tx, row, at) {
    const p = row.payload;
    const [from, to] = await pairOf(tx, p.from_account, p.to_account);
    const failed = await transferCash(tx, row, at, from, to, p.currency, new Decimal(p.amount), {
      out: ["JOURNAL", "CASH_JOURNAL_OUT"],
      in: ["JOURNAL", "CASH_JOURNAL_IN"],
    });
    return failed ?? { status: "COMPLETED" };
  },

  async INSTANT_FUNDING(tx, row, at) {
    const p = row.payload;
    const va = await accountOf(tx, p.account_id);
    const master = await accountOf(tx, (await masterAccount(tx)).account_id);
    const amount = new Decimal(p.amount);
    // Deposits are advanced from the omnibus master account; withdrawals return to it.
    const failed =
      p.type === "DEPOSIT"
        ? await transferCash(tx, row, at, master, va, p.currency, amount, {
            out: ["ALLOCATION", "INSTANT_FUNDING"],
            in: ["DEPOSIT", "INSTANT_FUNDING"],
          })
        : await transferCash(tx, row, at, va, master, p.currency, amount, {
            out: ["WITHDRAW", "INSTANT_FUNDING"],
            in: ["ALLOCATION", "INSTANT_FUNDING"],
          });
    return failed ?? { status: "COMPLETED" };
  },

  async FX_EXCHANGE(tx, row, at) {
    const p = row.payload;
    const master = await accountOf(tx, p.account_id);
    const [from, to] = [p.from_currency as Currency, p.to_currency as Currency];
    const fromAmount = new Decimal(p.from_amount);
    const toAmount = convert(fromAmount, from, to);
    const rate = toAmount.div(fromAmount).toDecimalPlaces(6).toFixed(6);
    const rows = await lockCash(
      tx,
      [
        [master.account_id, from],
        [master.account_id, to],
      ],
      at,
    );
    const have = availableCash(rows.get(`${master.account_id}|${from}`)!);
    if (have.lt(fromAmount)) return { ...short(master, from, have, fromAmount), result: { fx_rate: rate } };
    const ref = { refType: row.kind, refId: row.id, type: "OTHER", subType: "FX_EXCHANGE" };
    await postCash(
      tx,
      { accountId: master.account_id, currency: from, amount: fromAmount.neg(), activity: { key: `${row.id}:out`, ...ref } },
      at,
    );
    await postCash(tx, { accountId: master.account_id, currency: to, amount: toAmount, activity: { key: `${row.id}:in`, ...ref } }, at);
    return { status: "COMPLETED", result: { to_amount: cash(toAmount), fx_rate: rate } };
  },

  async INSTANT_EXCHANGE(tx, row, at) {
    const p = row.payload;
    const va = await accountOf(tx, p.account_id);
    const master = await accountOf(tx, (await masterAccount(tx)).account_id);
    const [from, to] = [p.from_currency as Currency, p.to_currency as Currency];
    const [fromAmount, toAmount] = [new Decimal(p.from_amount), new Decimal(p.to_amount)];
    const ceiling = fromAmount.times(midRate(from, to)).times(INSTANT_TOLERANCE.plus(1));
    if (toAmount.gt(ceiling))
      return rejected(
        `to_amount ${cash(toAmount)} is more than 1% above the mid-rate amount ${cash(fromAmount.times(midRate(from, to)))}.`,
      );
    const blocked = debitBlocked(va) ?? creditBlocked(va);
    if (blocked) return rejected(blocked);
    const rows = await lockCash(
      tx,
      [
        [va.account_id, from],
        [va.account_id, to],
        [master.account_id, from],
        [master.account_id, to],
      ],
      at,
    );
    const have = availableCash(rows.get(`${va.account_id}|${from}`)!);
    if (have.lt(fromAmount)) return short(va, from, have, fromAmount);
    const masterHas = availableCash(rows.get(`${master.account_id}|${to}`)!);
    if (masterHas.lt(toAmount)) return short(master, to, masterHas, toAmount);
    const ref = { refType: row.kind, refId: row.id, type: "OTHER", subType: "INSTANT_EXCHANGE" };
    // The master account is the VA's counterparty: it takes the from-currency and pays the to-currency.
    await postCash(
      tx,
      { accountId: va.account_id, currency: from, amount: fromAmount.neg(), activity: { key: `${row.id}:va:out`, ...ref } },
      at,
    );
    await postCash(tx, { accountId: va.account_id, currency: to, amount: toAmount, activity: { key: `${row.id}:va:in`, ...ref } }, at);
    await postCash(
      tx,
      { accountId: master.account_id, currency: from, amount: fromAmount, activity: { key: `${row.id}:m:in`, ...ref } },
      at,
    );
    await postCash(
      tx,
      { accountId: master.account_id, currency: to, amount: toAmount.neg(), activity: { key: `${row.id}:m:out`, ...ref } },
      at,
    );
    return { status: "COMPLETED" };
  },

  async POSITION_JOURNAL(tx, row, at) {
    const p = row.payload;
    const [from, to] = await pairOf(tx, p.from_account, p.to_account);
    const blocked = debitBlocked(from) ?? creditBlocked(to);
    if (blocked) return rejected(blocked);
    const quantity = new Decimal(p.quantity);
    const held = await lockPosition(tx, from.account_id, p.instrument_type, p.symbol);
    if (!held) return { status: "FAILED", reason: `Account ${from.account_number} holds no ${p.symbol} position.` };
    if (new Decimal(held.quantity).lt(quantity)) {
      return {
        status: "FAILED",
        reason: `Account ${from.account_number} holds ${qty(held.quantity)} ${p.symbol}, fewer than ${qty(quantity)}.`,
      };
    }
    const common = {
      instrumentType: p.instrument_type,
      market: p.market,
      symbol: p.symbol,
      currency: held.currency,
      price: held.cost_price,
    };
    const ref = { refType: row.kind, refId: row.id, type: "JOURNAL" };
    await postPosition(
      tx,
      {
        ...common,
        accountId: from.account_id,
        quantity: quantity.neg(),
        activity: { key: `${row.id}:out`, subType: "POSITION_JOURNAL_OUT", ...ref },
      },
      at,
    );
    await postPosition(
      tx,
      { ...common, accountId: to.account_id, quantity, activity: { key: `${row.id}:in`, subType: "POSITION_JOURNAL_IN", ...ref } },
      at,
    );
    return { status: "COMPLETED" };
  },
};

/** Runs a SUBMITTED request to its end state. */
export async function processMovement(tx: Tx, row: RequestRow, at: Date): Promise<RequestRow> {
  const outcome = await PROCESSORS[row.kind as MovementKind](tx, row, at);
  return finish(tx, row, outcome, at);
}

/** Claims the idempotency key and, unless requests are held, processes the request in the same transaction. */
export async function submitMovement(
  tx: Tx,
  m: { kind: MovementKind; clientRequestId: string; accountId: string; body: unknown; payload: Record<string, string>; id?: string },
  at: Date,
  hold = false,
): Promise<RequestRow> {
  const { row, fresh } = await claim(tx, m, at);
  if (!fresh || hold) return row;
  return processMovement(tx, row, at);
}

/** Wire shape of a request: its id field, client_request_id, the request fields, status, reason when not COMPLETED. */
export function movementView(row: RequestRow): Record<string, unknown> {
  const view: Record<string, unknown> = {
    [ID_FIELD[row.kind as MovementKind]]: row.id,
    client_request_id: row.client_request_id,
    ...row.payload,
    ...row.result,
    status: row.status,
    create_time: new Date(row.created_at).toISOString(),
    update_time: new Date(row.updated_at).toISOString(),
  };
  if (row.reason) view.reason = row.reason;
  return view;
}
