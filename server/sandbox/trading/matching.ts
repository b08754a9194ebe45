import "server-only";
import type { Sandbox } from "../context";
import { emit, type OutboxEvent } from "./events/outbox";
import { expireOptions } from "./exercise";
import { executeFill } from "./fills";
import { endOrder } from "./lifecycle";
import { lockOrderById, movableOrders, updateOrder, workingOrders, type OrderRow } from "./order-store";
import { decide } from "./pricing";
import { canExecute, localTime, sessionAt, type Market } from "./sessions";
import { trading } from "./state";

/**
 * A matching pass: housekeeping (DAY/GTD expiry, settlement, option expiry), then every working order (or the given
 * ones) is checked against the market in memory, and only orders the market moves are locked and re-checked in their
 * own transaction. Passes run one at a time per sandbox. Children activated by a fill are matched in the same pass.
 */
export async function runMatching(sb: Sandbox, ids?: string[]): Promise<void> {
  const t = trading(sb);
  await t.serial(async () => {
    const at = t.now();
    await t.market.load(sb.engine, at);
    if (!ids) await housekeeping(sb, at);
    // A full pass reads only the orders the market may move (plain LIMIT orders out of reach stay in the database).
    let batch = ids
      ? await workingOrders(sb.engine, ids)
      : await movableOrders(
          sb.engine,
          t.market.all().map((q) => {
            const { bid, ask } = t.market.spread(q);
            return { key: q.key, bid: bid.toFixed(), ask: ask.toFixed() };
          }),
        );
    for (let round = 0; round < 4 && batch.length; round += 1) {
      const activated: string[] = [];
      for (const o of batch) activated.push(...(await matchOne(sb, o, at)));
      batch = activated.length ? await workingOrders(sb.engine, activated) : [];
    }
    await t.market.flush(sb.engine);
  });
  t.bus.emit("events");
}

function expiredBy(o: OrderRow, at: Date): string | undefined {
  const today = localTime(o.market as Market, at).date;
  if (o.time_in_force === "DAY" && localTime(o.market as Market, new Date(o.place_time)).date < today)
    return "DAY order expired at the end of its trading day.";
  if (o.time_in_force === "GTD" && o.expire_date && o.expire_date < today) return `GTD order expired after ${o.expire_date}.`;
  return undefined;
}

async function matchOne(sb: Sandbox, o: OrderRow, at: Date): Promise<string[]> {
  const t = trading(sb);
  if (expiredBy(o, at)) return [];
  if (
    !canExecute(
      o.order_type === "MARKET_ON_OPEN" || o.order_type === "MARKET_ON_CLOSE" ? "CORE" : o.trading_session,
      sessionAt(o.market as Market, at),
    )
  )
    return [];
  const d = decide(t, o);
  if (d.kind === "none") return [];
  const out: OutboxEvent[] = [];
  const activated = await sb.engine.transaction(async (tx) => {
    const cur = await lockOrderById(tx, o.order_id);
    if (!cur || (cur.status !== "SUBMITTED" && cur.status !== "PARTIAL_FILLED")) return [];
    const again = decide(t, cur);
    if (again.kind === "none") return [];
    if (again.kind === "watermark") {
      await updateOrder(tx, cur.order_id, { watermark: again.watermark.toFixed() }, at);
      return [];
    }
    const trig = again.kind === "trigger" ? again : again.trigger;
    if (trig) {
      const patch: Record<string, unknown> = { triggered: true };
      if (trig.watermark) patch.watermark = trig.watermark.toFixed();
      if (trig.limit) patch.limit_price = trig.limit.toDecimalPlaces(2).toFixed();
      await updateOrder(tx, cur.order_id, patch, at);
      Object.assign(cur, { triggered: true, limit_price: patch.limit_price ?? cur.limit_price });
    }
    if (again.kind !== "fill") return [];
    const ids = await executeFill(tx, t, cur, again.quantity, again.price, at, out);
    const q = t.market.get(cur.instrument_type, cur.market, cur.symbol);
    if (q) q.volume = q.volume.plus(again.quantity);
    await emit(tx, out, at);
    return ids;
  });
  return activated;
}

async function housekeeping(sb: Sandbox, at: Date): Promise<void> {
  const out: OutboxEvent[] = [];
  await sb.engine.transaction(async (tx) => {
    const { rows } = await tx.query<{ order_id: string }>(
      `SELECT order_id FROM sandbox.orders WHERE status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED')
         AND (time_in_force = 'DAY' AND place_time < $1 OR time_in_force = 'GTD' AND expire_date < $2::date) ORDER BY seq`,
      [new Date(at.getTime() - 6 * 3_600_000), at.toISOString().slice(0, 10)],
    );
    for (const r of rows) {
      const o = await lockOrderById(tx, r.order_id);
      const why = o && expiredBy(o, at);
      if (o && why) await endOrder(tx, o, "CANCELLED", why, at, out);
    }
    // Settlement: sale proceeds become settled cash on their settlement date.
    await tx.query(
      `WITH due AS (UPDATE sandbox.executions SET settled = true WHERE NOT settled AND settle_date <= $1::date RETURNING account_id, currency, unsettled_amount),
            sums AS (SELECT account_id, currency, sum(unsettled_amount) AS s FROM due GROUP BY account_id, currency)
       UPDATE sandbox.cash_balances b SET unsettled_cash = greatest(b.unsettled_cash - sums.s, 0) FROM sums
        WHERE b.account_id = sums.account_id AND b.currency = sums.currency`,
      [at.toISOString().slice(0, 10)],
    );
    await expireOptions(tx, trading(sb), at, out);
    // Corporate actions reach their ex-date (market clock, New York date): announced once each.
    const { rows: cas } = await tx.query<{ detail: Record<string, unknown> }>(
      `WITH due AS (INSERT INTO sandbox.announced_corporate_actions (event_id, announced_at)
                    SELECT event_id, $2 FROM sandbox.corporate_actions WHERE (detail->>'ex_date')::date <= $1::date
                    ON CONFLICT DO NOTHING RETURNING event_id)
       SELECT c.detail FROM sandbox.corporate_actions c JOIN due USING (event_id) ORDER BY c.event_id`,
      [localTime("US", at).date, at],
    );
    for (const c of cas)
      out.push({ event_type: "CORPORATE_ACTION", account_id: null, payload: { biz_type: "EX_DATE_REACHED", ...c.detail } });
    await emit(tx, out, at);
  });
}
