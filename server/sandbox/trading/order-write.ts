import "server-only";
import type { Queryable } from "@/server/db/engine";
import type { Sandbox } from "../context";
import { ApiError, business, illegal } from "../errors";
import { bodyHash, newId } from "../ids";
import { Decimal, cash } from "../money";
import { linkCombo, type ApiFamily } from "./combos";
import { emit, type OutboxEvent } from "./events/outbox";
import { charges } from "./fees";
import { hold, insufficientBuyingPower, sellable } from "./funds";
import { runMatching } from "./matching";
import { parseOrder, PRICE_FIELDS, type AccountForOrders, type OrderInstrument, type OrderSpec } from "./order-spec";
import { multiplierOf, type OrderRow } from "./order-store";
import { bookOf, decide, estimateHold, referencePrice } from "./pricing";
import { trading } from "./state";

/** Preview and place (idempotent by client_order_id per account). */
const ACCOUNT_COLUMNS = "account_id, account_number, account_status, account_type, trading_permissions, option_level, commission_code";

interface OrderContext {
  account: AccountForOrders;
  used: { client_order_id: string; body_hash: string }[];
  instruments: Map<string, OrderInstrument>;
}

/**
 * The account of a placement with its order lock taken (the same key as `orders:<account_id>`), then the
 * client_order_ids of this request already used on it and the stock instruments the orders name, read after the lock
 * so they see every placement committed before: one statement (sandbox.order_context, migration 0113). Undefined
 * when the account does not exist.
 */
async function orderContext(tx: Queryable, body: Record<string, unknown>): Promise<OrderContext | undefined> {
  const list = body.new_orders;
  const raws = Array.isArray(list) ? list.filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null) : [];
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const { rows } = await tx.query<{
    c: {
      account: AccountForOrders;
      used: OrderContext["used"];
      instruments: (OrderInstrument & { market: string; symbol: string })[];
    } | null;
  }>("SELECT sandbox.order_context($1, $2, $3, $4) AS c", [
    text(body.account_id),
    raws.map((r) => r.client_order_id).filter((c): c is string => typeof c === "string"),
    raws.map((r) => text(r.market)),
    raws.map((r) => text(r.symbol)),
  ]);
  const c = rows[0].c;
  return c
    ? {
        account: c.account,
        used: c.used,
        instruments: new Map(c.instruments.map(({ market, symbol, ...i }) => [`${market}|${symbol}`, i])),
      }
    : undefined;
}

/** The orders of an account with these client_order_ids, in one statement. */
async function findOrders(tx: Queryable, accountId: string, clientOrderIds: string[]): Promise<OrderRow[]> {
  if (!clientOrderIds.length) return [];
  const { rows } = await tx.query<OrderRow>(
    `SELECT o.*, o.expire_date::text AS expire_date, o.seq::text AS seq FROM sandbox.orders o WHERE account_id = $1 AND client_order_id = ANY($2::text[])`,
    [accountId, clientOrderIds],
  );
  // In the order of the request, as one lookup per order gave them.
  return rows.sort((a, b) => clientOrderIds.indexOf(a.client_order_id) - clientOrderIds.indexOf(b.client_order_id));
}

export async function orderAccount(db: Queryable, id: unknown): Promise<AccountForOrders> {
  const { rows } = await db.query<AccountForOrders>(
    `SELECT ${ACCOUNT_COLUMNS} FROM sandbox.virtual_accounts WHERE account_id = $1 OR account_number = $1`,
    [typeof id === "string" ? id : ""],
  );
  if (!rows[0]) throw business("ACCOUNT_NOT_FOUND", `account_id ${String(id ?? "")} does not exist.`);
  return rows[0];
}

function rawOrders(body: Record<string, unknown>, field: string): Record<string, unknown>[] {
  const list = body[field];
  if (!Array.isArray(list) || !list.length || list.some((o) => typeof o !== "object" || o === null))
    throw illegal(`${field} must be a non-empty array of orders.`);
  if (list.length > 3) throw illegal(`${field} takes at most 3 orders.`);
  return list as Record<string, unknown>[];
}

/** A new order's state: not triggered, nothing filled, charged or held yet. */
export const UNFILLED = {
  triggered: false,
  watermark: null,
  filled_quantity: "0",
  filled_value: "0",
  commission: "0",
  receivable_commission: "0",
  fees: [],
  held_amount: "0",
} satisfies Partial<OrderRow>;

/** An OrderRow-shaped draft of a spec, so pricing and holds treat drafts and stored orders alike. */
function draft(s: OrderSpec, accountId: string, at: Date): OrderRow {
  return {
    order_id: newId(),
    seq: "0",
    account_id: accountId,
    client_order_id: s.client_order_id,
    group_id: "",
    client_combo_order_id: null,
    combo_type: s.combo_type,
    parent_order_id: null,
    oco_key: null,
    status: "SUBMITTED",
    reason: null,
    instrument_type: s.instrument_type,
    market: s.market,
    symbol: s.symbol,
    currency: s.currency,
    side: s.side,
    order_type: s.order_type,
    entrust_type: s.entrust_type,
    time_in_force: s.time_in_force,
    expire_date: s.expire_date,
    trading_session: s.trading_session,
    quantity: s.quantity?.toFixed() ?? null,
    total_cash_amount: s.total_cash_amount?.toFixed() ?? null,
    limit_price: s.limit_price?.toFixed() ?? null,
    stop_price: s.stop_price?.toFixed() ?? null,
    trailing_type: s.trailing_type,
    trailing_stop_step: s.trailing_stop_step?.toFixed() ?? null,
    trailing_limit_price_offset: s.trailing_limit_price_offset?.toFixed() ?? null,
    trigger_price_type: s.trigger_price_type,
    ...UNFILLED,
    option_strategy: s.option_strategy,
    legs: s.legs?.map((l) => ({ ...l, ratio: l.ratio.toFixed() })) ?? null,
    extra: { ...s.extra, _instrument_id: s.instrument_id },
    body_hash: "",
    place_time: at,
    filled_time: null,
    updated_at: at,
  };
}

export async function previewOrder(sb: Sandbox, body: Record<string, unknown>, family: ApiFamily = "broker") {
  const t = trading(sb);
  const at = t.now();
  await t.market.load(sb.engine, at);
  const account = await orderAccount(sb.engine, body.account_id);
  const specs = await Promise.all(rawOrders(body, "new_orders").map((r, i) => parseOrder(sb.engine, r, i, account, true)));
  linkCombo(specs, family);
  const s = specs[0];
  const d = draft(s, account.account_id, at);
  if (!bookOf(t, d)) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
  const units = s.quantity ?? s.total_cash_amount!.div(referencePrice(t, d)).toDecimalPlaces(4, Decimal.ROUND_DOWN);
  const value = s.entrust_type === "AMOUNT" ? s.total_cash_amount! : units.times(referencePrice(t, d)).times(multiplierOf(d)).abs();
  const contracts = s.legs ? s.legs.filter((l) => l.option).reduce((a, l) => a.plus(l.ratio.times(units)), new Decimal(0)) : units;
  const ch = charges(
    { market: s.market, instrumentType: s.instrument_type, side: s.side, quantity: units, value, contracts },
    account.commission_code,
  );
  const fee = ch.commission.plus(ch.feeTotal);
  return {
    estimated_cost: cash(s.side === "BUY" ? value.plus(fee) : value.minus(fee)),
    estimated_transaction_fee: cash(fee),
    estimated_transaction_fee_detail: {
      commission: { actual_commission: cash(ch.commission), receivable_commission: cash(ch.receivableCommission) },
      fees: ch.fees,
    },
  };
}

const ack = (o: { client_order_id: string; order_id: string }) => ({ client_order_id: o.client_order_id, order_id: o.order_id });

/** A placement validated and drafted from its context, or the stored orders of a replay. */
type Prepared = { replay: OrderRow[] } | { acc: AccountForOrders; specs: OrderSpec[]; pending: boolean[]; drafts: OrderRow[] };

export async function placeOrders(sb: Sandbox, body: Record<string, unknown>, family: ApiFamily = "broker") {
  const t = trading(sb);
  const at = t.now();
  await t.market.load(sb.engine, at);
  const hash = bodyHash(body);
  const combo = typeof body.client_combo_order_id === "string" ? body.client_combo_order_id : null;
  // Set once the account is known and the orders are well-formed: a failure after that is a PLACE_FAILED event.
  let account: AccountForOrders | undefined;
  let raws: Record<string, unknown>[] | undefined;

  const prepare = async (db: Queryable, ctx: OrderContext | undefined): Promise<Prepared> => {
    if (!ctx) throw business("ACCOUNT_NOT_FOUND", `account_id ${String(body.account_id ?? "")} does not exist.`);
    const { account: acc, used, instruments } = ctx;
    const list = rawOrders(body, "new_orders");
    [account, raws] = [acc, list];
    const ids = list.map((r) => r.client_order_id).filter((id): id is string => typeof id === "string");
    // The full rows only when some id is used already (a replay or a duplicate).
    const existing = used.length ? await findOrders(db, acc.account_id, ids) : [];
    if (existing.length) {
      if (existing.length === list.length && existing.every((o) => o.body_hash === hash))
        return { replay: existing.map((o) => ({ ...o, replay: true })) };
      throw business(
        "DUPLICATE_CLIENT_ORDER_ID",
        `client_order_id ${existing[0].client_order_id} was already used with a different order.`,
      );
    }
    if (acc.account_status !== "ACTIVE") throw business("ACCOUNT_NOT_TRADABLE", `Account ${acc.account_number} is ${acc.account_status}.`);
    const specs: OrderSpec[] = [];
    for (const [i, r] of list.entries()) specs.push(await parseOrder(db, r, i, acc, false, instruments));
    if (new Set(specs.map((s) => s.client_order_id)).size !== specs.length)
      throw illegal("client_order_id must differ between the orders of one request.");
    const links = linkCombo(specs, family);
    const drafts = specs.map((s) => draft(s, acc.account_id, at));
    const oco = links.some((l) => l.oco) ? newId() : null;
    for (const [i, d] of drafts.entries()) {
      const l = links[i];
      Object.assign(d, {
        group_id: specs[0].client_order_id,
        client_combo_order_id: combo,
        body_hash: hash,
        status: l.pending ? "PENDING" : "SUBMITTED",
        parent_order_id: l.parent === null ? null : drafts[l.parent].order_id,
        oco_key: l.oco ? oco : null,
      });
      if (!bookOf(t, d)) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
    }
    return { acc, specs, pending: links.map((l) => l.pending), drafts };
  };

  let rows: OrderRow[] = [];
  try {
    rows = await sb.engine.transaction(async (tx) => {
      // One place at a time per account: the duplicate check and the buying-power check see each other's orders.
      // The account is read and its lock taken in one statement; what follows runs after the lock, so it sees
      // every placement committed before.
      const p = await prepare(tx, await orderContext(tx, body));
      if ("replay" in p) return p.replay;
      const { acc, specs, drafts } = p;
      // A single order holds its cash and is written in one statement (holdAndInsert); several keep hold, hold, then
      // insert, insert, as a later order's checks may read what an earlier one held.
      const single = drafts.length === 1;
      for (const [i, d] of drafts.entries()) {
        if (p.pending[i]) continue;
        if (
          d.side === "SELL" &&
          d.instrument_type === "EQUITY" &&
          (await sellable(tx, d.account_id, "EQUITY", d.symbol)).lt(d.quantity ?? 0)
        ) {
          throw business(
            "INSUFFICIENT_POSITION",
            `Account ${acc.account_number} cannot sell ${d.quantity} ${d.symbol}: not enough shares free (use SHORT to sell short).`,
          );
        }
        const need = await estimateHold(tx, t, d, acc.account_type, specs[i].profile);
        d.held_amount = need.toFixed();
        if (single && need.gt(0)) {
          await holdAndInsert(tx, acc, d, need, at);
          return drafts;
        }
        await hold(tx, acc, d.currency, need, at);
      }
      for (const d of drafts) await insertOrder(tx, d);
      return drafts;
    });
  } catch (e) {
    if (account && raws && e instanceof ApiError && e.code !== "DUPLICATE_CLIENT_ORDER_ID" && e.status === 417)
      await placeFailed(sb, account.account_id, raws, e.message, at);
    throw e;
  }
  // A matching pass only for orders the market can move now (marketable, triggerable, or a trailing watermark to set).
  const movable = rows.filter((r) => r.status === "SUBMITTED" && decide(t, r).kind !== "none");
  if (!rows.some((r) => "replay" in r) && movable.length)
    await runMatching(
      sb,
      movable.map((r) => r.order_id),
    );
  return rows.length === 1 ? ack(rows[0]) : rows.map(ack);
}

async function placeFailed(sb: Sandbox, accountId: string, raws: Record<string, unknown>[], reason: string, at: Date) {
  const events: OutboxEvent[] = raws.map((r) => ({
    event_type: "TRADE",
    account_id: accountId,
    payload: {
      biz_type: "TRADE",
      scene_type: "PLACE_FAILED",
      account_id: accountId,
      client_order_id: r.client_order_id,
      symbol: r.symbol,
      side: r.side,
      order_type: r.order_type,
      order_status: "FAILED",
      reason,
    },
  }));
  await sb.engine.transaction((tx) => emit(tx, events, at));
  trading(sb).bus.emit("events");
}

const ORDER_COLUMNS = [
  "order_id",
  "account_id",
  "client_order_id",
  "group_id",
  "client_combo_order_id",
  "combo_type",
  "parent_order_id",
  "oco_key",
  "status",
  "instrument_type",
  "market",
  "symbol",
  "currency",
  "side",
  "order_type",
  "entrust_type",
  "time_in_force",
  "expire_date",
  "trading_session",
  "quantity",
  "total_cash_amount",
  ...PRICE_FIELDS,
  "held_amount",
  "option_strategy",
  "legs",
  "extra",
  "body_hash",
  "place_time",
  "updated_at",
] as const;
const orderValues = (d: OrderRow) =>
  ORDER_COLUMNS.map((c) => (c === "legs" || c === "extra" ? (d[c] == null ? null : JSON.stringify(d[c])) : d[c]));
const INSERT_ORDER = `INSERT INTO sandbox.orders (${ORDER_COLUMNS.join(", ")}) VALUES (${ORDER_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")})`;

export async function insertOrder(tx: Queryable, d: OrderRow) {
  await tx.query(INSERT_ORDER, orderValues(d));
}

/**
 * `hold` and `insertOrder` of one order in one statement (one round trip fewer per placement): sandbox.hold_cash
 * locks the balance, reads the buying power and holds `need` when it covers it, and the order row is written only
 * then; below it, nothing is held nor written and the order is refused as `hold` refuses it.
 */
const n = ORDER_COLUMNS.length;
const HOLD_AND_INSERT = `WITH h AS (SELECT sandbox.hold_cash($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}) AS power),
  o AS (INSERT INTO sandbox.orders (${ORDER_COLUMNS.join(", ")})
        SELECT ${ORDER_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")} FROM h WHERE h.power >= $${n + 3})
  SELECT power::text AS power FROM h`;

async function holdAndInsert(tx: Queryable, acc: AccountForOrders, d: OrderRow, need: Decimal, at: Date) {
  const { rows } = await tx.query<{ power: string }>(HOLD_AND_INSERT, [
    ...orderValues(d),
    acc.account_id,
    d.currency,
    need.toFixed(),
    at,
    acc.account_type === "MARGIN",
  ]);
  const power = new Decimal(rows[0].power);
  if (power.lt(need)) throw insufficientBuyingPower(acc, d.currency, power, need);
}
