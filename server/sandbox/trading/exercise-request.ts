import "server-only";
import type { Sandbox } from "../context";
import { business, illegal } from "../errors";
import { bodyHash, newId } from "../ids";
import { availableCash, lockCash, lockPosition } from "../ledger";
import { Decimal, parsePositive, qty } from "../money";
import { clientRequestId } from "../requests";
import { emit } from "./events/outbox";
import { deliver } from "./exercise";
import type { ContractInfo } from "./order-types";
import { orderAccount } from "./order-write";
import { trading } from "./state";

/**
 * POST /openapi/broker/option/exercise (body chosen by us: account_id, client_request_id, symbol (OCC), quantity,
 * exercise_type EXERCISE | DO_NOT_EXERCISE). Keyed by client_request_id per account like every request. EXERCISE
 * delivers at once (status COMPLETED) or ends FAILED with a reason (not enough cash for a call in a CASH account, or
 * not enough shares for a put in a CASH account); DO_NOT_EXERCISE is recorded (COMPLETED) and stops automatic
 * exercise at expiry.
 */
type Row = {
  exercise_id: string;
  account_id: string;
  client_request_id: string;
  body_hash: string;
  symbol: string;
  quantity: string;
  exercise_type: string;
  status: string;
  reason: string | null;
  created_at: Date;
};

const view = (r: Row) => ({
  exercise_id: r.exercise_id,
  client_request_id: r.client_request_id,
  account_id: r.account_id,
  symbol: r.symbol,
  quantity: qty(r.quantity),
  exercise_type: r.exercise_type,
  status: r.status,
  ...(r.reason ? { reason: r.reason } : {}),
  create_time: new Date(r.created_at).toISOString(),
});

export async function exerciseOption(sb: Sandbox, body: Record<string, unknown>) {
  const t = trading(sb);
  const at = t.now();
  const crid = clientRequestId(body);
  const account = await orderAccount(sb.engine, body.account_id);
  const quantity = parsePositive(body.quantity, "quantity");
  if (!quantity.isInteger()) throw illegal("quantity must be whole contracts.");
  const type = body.exercise_type ?? "EXERCISE";
  if (type !== "EXERCISE" && type !== "DO_NOT_EXERCISE") throw illegal("exercise_type must be EXERCISE or DO_NOT_EXERCISE.");
  const hash = bodyHash(body);
  const result = await sb.engine.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`orders:${account.account_id}`]);
    const { rows: prior } = await tx.query<Row>("SELECT * FROM sandbox.option_exercises WHERE account_id = $1 AND client_request_id = $2", [
      account.account_id,
      crid,
    ]);
    if (prior[0]) {
      if (prior[0].body_hash !== hash)
        throw business("DUPLICATE_CLIENT_REQUEST_ID", `client_request_id ${crid} was already used with a different request.`);
      return prior[0];
    }
    const { rows: cs } = await tx.query<ContractInfo>(
      "SELECT symbol, root_symbol, option_type, strike_price::text, expiration_date::text AS expiration_date, multiplier FROM sandbox.option_contracts WHERE symbol = $1",
      [body.symbol],
    );
    const c = cs[0];
    if (!c) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
    const held = await lockPosition(tx, account.account_id, "OPTION", c.symbol);
    if (!held || new Decimal(held.quantity).lt(quantity))
      throw business(
        "INSUFFICIENT_POSITION",
        `Account ${account.account_number} holds fewer than ${quantity.toString()} long ${c.symbol}.`,
      );
    let status = "COMPLETED";
    let reason: string | null = null;
    const exerciseId = newId();
    if (type === "EXERCISE") {
      const shares = quantity.times(c.multiplier);
      if (account.account_type === "CASH" && c.option_type === "CALL") {
        const have = availableCash((await lockCash(tx, [[account.account_id, "USD"]], at)).get(`${account.account_id}|USD`)!);
        if (have.lt(shares.times(c.strike_price)))
          [status, reason] = ["FAILED", `Exercise needs USD ${shares.times(c.strike_price).toFixed(2)}; available ${have.toFixed(2)}.`];
      }
      if (account.account_type === "CASH" && c.option_type === "PUT") {
        const stock = await lockPosition(tx, account.account_id, "EQUITY", c.root_symbol);
        if (!stock || new Decimal(stock.quantity).lt(shares))
          [status, reason] = ["FAILED", `Exercise of a put delivers ${shares.toString()} ${c.root_symbol}; a CASH account must hold them.`];
      }
      if (status === "COMPLETED") await deliver(tx, account.account_id, c, quantity, "EXERCISE", `exercise:${exerciseId}`, at);
    }
    const { rows } = await tx.query<Row>(
      `INSERT INTO sandbox.option_exercises (exercise_id, account_id, client_request_id, body_hash, symbol, quantity, exercise_type, status, reason, created_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING *`,
      [exerciseId, account.account_id, crid, hash, c.symbol, quantity.toFixed(), type, status, reason, at],
    );
    await emit(
      tx,
      [{ event_type: "TRADE", account_id: account.account_id, payload: { biz_type: "OPTION_EXERCISE", ...view(rows[0]) } }],
      at,
    );
    return rows[0];
  });
  t.bus.emit("events");
  return view(result);
}
