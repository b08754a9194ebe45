import "server-only";
import type { BrokerClient } from "@/server/broker/client";
import { prepareAppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import { pacer, runOrderSweep } from "@/server/orders/sweep";
import { option } from "./args";

/**
 * `npm run bench:sweep [-- --accounts 100,10000] [--busy 0.05]`: how long one full cycle of the open-orders sweep
 * takes at 100 and 10,000 accounts, on PGlite.
 *
 * The upstream is replaced by an answer that costs nothing (each account's open orders: none, or for `busy` of the
 * accounts one open order already in the books), so what is measured is the desk's own work a visit: choosing the
 * next account (one query over the directory and the books), applying what the upstream listed, recording the visit.
 * The cycle's time under the order-query budget is then the larger of the calls' spacing (N / rate) and that work:
 * printed for the default share (0.5 a second) and the whole budget (1 a second). At most `visits` (default 1,000)
 * visits are measured a size; a larger cycle's desk time is their mean times the accounts ("visited" says how many). A busy account's extra turn
 * alternates with the round's, so with busy accounts a cycle is at most twice N / rate; this bench's hot interval is
 * longer than its run, so it measures the plain round.
 */
const SIZES = (option("accounts") ?? "100,10000").split(",").map(Number);
const BUSY = Number(option("busy") ?? 0.05);
/** Visits measured a size (the rest of the cycle is extrapolated from their mean): a 10,000-account cycle is long. */
const SAMPLE = Number(option("visits") ?? 1000);

const pad = (v: string | number, n: number) => String(v).padStart(n);
const fmtS = (s: number) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 60 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function cycle(n: number) {
  const engine = await openEngine({});
  await prepareAppDb(engine);
  await engine.query(
    `INSERT INTO brokerdesk.account_directory (account_id, account_number)
     SELECT 'ACC' || lpad(i::text, 6, '0'), 'VB' || lpad(i::text, 8, '0') FROM generate_series(1, $1) AS i`,
    [n],
  );
  const busy = new Set(
    Array.from({ length: Math.round(n * BUSY) }, (_, i) => `ACC${String(i * Math.floor(1 / BUSY) + 1).padStart(6, "0")}`),
  );
  // The busy accounts' open order, already in the books (as the sweep leaves it after its first visit).
  for (const account of busy) {
    await engine.query(
      `INSERT INTO brokerdesk.orders (account_id, client_order_id, order_id, symbol, side, order_type, quantity, limit_price, status,
                                      placed_at, updated_at, last_event_seq, detail_at)
       VALUES ($1, 'o-' || $1, 'u-' || $1, 'AAPL', 'BUY', 'LIMIT', 1, 100, 'SUBMITTED', now(), now() - interval '1 hour', 0, now())`,
      [account],
    );
  }
  const order = (account: string) => ({
    client_order_id: `o-${account}`,
    order_id: `u-${account}`,
    symbol: "AAPL",
    side: "BUY",
    order_type: "LIMIT",
    quantity: "1",
    limit_price: "100",
    status: "SUBMITTED",
  });
  const visits: number[] = [];
  const stop = new AbortController();
  let last = performance.now();
  const client = {
    listOpenOrders: async ({ account_id }: { account_id: string }) => {
      const now = performance.now();
      visits.push(now - last);
      // Checked here, not by a timer: with no budget to wait for, the loop may not yield to timers at all.
      if (visits.length >= Math.min(n, SAMPLE)) stop.abort();
      last = now;
      return { items: busy.has(account_id) ? [{ orders: [order(account_id)] }] : [], nextCursor: undefined };
    },
    listVirtualAccounts: async () => ({ items: [], nextCursor: undefined }),
  } as unknown as BrokerClient;

  const started = performance.now();
  let checked = 0;
  const run = runOrderSweep(
    { engine, client, rate: 1_000_000, hotMs: 3_600_000, relistMs: 3_600_000 },
    { pace: pacer(1_000_000), listedAt: Date.now() },
    stop.signal,
  ).then((t) => (checked = t.checked));
  await run;
  // The desk's own time for the whole cycle: measured when every account was visited, else the sample's mean × n.
  const wall = ((performance.now() - started) / 1000) * (n / visits.length);
  const { rows } = await engine.query<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.order_sweep WHERE checked_at IS NOT NULL");
  await engine.close();
  return { n, wall, checked, measured: visits.length, distinct: Number(rows[0].n), p50: pct(visits, 50), p99: pct(visits, 99) };
}

console.log(`open-orders sweep, one full cycle (PGlite, ${Math.round(BUSY * 100)} % of accounts with an open order)`);
console.log(
  `${pad("accounts", 9)} ${pad("visited", 8)} ${pad("desk p50 ms", 12)} ${pad("desk p99 ms", 12)} ${pad("desk only", 10)} ${pad("at 0.5/s", 10)} ${pad("at 1/s", 10)}`,
);
for (const n of SIZES) {
  const r = await cycle(n);
  const at = (rate: number) => fmtS(Math.max(n / rate, r.wall));
  console.log(
    `${pad(n, 9)} ${pad(r.distinct, 8)} ${pad(r.p50.toFixed(2), 12)} ${pad(r.p99.toFixed(2), 12)} ${pad(fmtS(r.wall), 10)} ${pad(at(0.5), 10)} ${pad(at(1), 10)}`,
  );
}
