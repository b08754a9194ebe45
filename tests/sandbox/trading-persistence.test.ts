import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { SignedClient } from "../helpers/signed-fetch";
import type { TestEngine } from "../helpers/engines";
import { engines, rid } from "./fixture";
import { clock, fund, order, place, setPrice, stock, US_CORE } from "./trading-helpers";

/**
 * The account's USD balance row locked by a connection of the test's own (the PostgreSQL server only) until
 * `release`: every hold of the account waits meanwhile.
 */
async function lockBalance(url: string, account: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("BEGIN");
  await c.query("SELECT 1 FROM sandbox.cash_balances WHERE account_id = $1 AND currency = 'USD' FOR UPDATE", [account]);
  return {
    /** Resolves once `n` statements of this database wait for a lock. */
    async waiting(n: number) {
      for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
        await c.query("SELECT pg_stat_clear_snapshot()");
        const { rows } = await c.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (rows[0].n >= n) return;
      }
      throw new Error(`fewer than ${n} statements waited for the balance row`);
    },
    async release() {
      await c.query("COMMIT");
      await c.end();
    },
  };
}

/**
 * On every engine (PGlite; the PostgreSQL server when TEST_DATABASE_URL is set): concurrent placements never
 * overdraw buying power, and orders survive a sandbox restart on the same database and still fill afterwards.
 */
describe.each(engines.map((e) => [e.name, e] as [string, TestEngine]))("trading on %s", (_name, te) => {
  let db: Awaited<ReturnType<TestEngine["open"]>>;
  let sb: RunningSandbox;
  let api: SignedClient;
  const start = async () => {
    sb = await startSandbox({ port: 0, engine: db.engine, tokenRateLimit: 1000 });
    api = new SignedClient(sb.url);
    await api.login();
    await clock(api, US_CORE);
  };
  beforeAll(async () => {
    db = await te.open();
    await start();
  }, 90_000);
  afterAll(async () => {
    await sb?.close();
    await db?.close();
  });

  /** A new virtual account of this type, funded with `amount` USD. */
  const newAccount = async (type: "CASH" | "MARGIN", amount: string) => {
    const masterId = (await api.op("listVirtualAccounts", "resource", { query: { page_size: 1 } })).body.data[0].belong_account_id;
    const created = await api.op("createVirtualAccount", "resource", {
      body: {
        client_request_id: rid("va"),
        belong_account_id: masterId,
        external_account_number: String(Date.now()).slice(-9),
        account_type: type,
        trading_permissions: ["US_STOCK_NORMAL"],
      },
    });
    await fund(api, created.body.account_id, amount);
    return created.body.account_id as string;
  };
  it("16 concurrent placements on one CASH account: holds never exceed the cash", async () => {
    const acct = await newAccount("CASH", "1000.00");
    await setPrice(api, "KO", "60.00");
    // Each order holds 300.00 + commission: three fit in 1000.00, a fourth does not.
    const results = await Promise.all(
      Array.from({ length: 16 }, () => place(api, acct, [stock({ symbol: "KO", limit_price: "30.00", quantity: "10" })])),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 417).every((r) => r.body.error_code === "INSUFFICIENT_BUYING_POWER")).toBe(true);
    const bal = await api.op("getBalance", "resource", { query: { account_id: acct } });
    const usd = bal.body.account_currency_assets.find((c: { currency: string }) => c.currency === "USD");
    expect(Number(usd.held_amount)).toBeLessThanOrEqual(1000);
  });

  const usdRow = async (acct: string) =>
    (
      await db.engine.query<{ cash_balance: string; held_amount: string }>(
        "SELECT cash_balance::text, held_amount::text FROM sandbox.cash_balances WHERE account_id = $1 AND currency = 'USD'",
        [acct],
      )
    ).rows[0];

  it("one order sent 16 times at once: placed once and held once, every answer acknowledging that order", async () => {
    const acct = await newAccount("CASH", "1000.00");
    await setPrice(api, "KO", "60.00");
    const o = stock({ symbol: "KO", limit_price: "30.00", quantity: "10" });
    // On the server the account's balance row is held until several placements wait (for it, or for the account's
    // order lock behind it), so that they contend: the first through places the order, the others find it placed.
    const lock = db.url ? await lockBalance(db.url, acct) : undefined;
    const sent = Promise.all(Array.from({ length: 16 }, () => place(api, acct, [o])));
    await lock?.waiting(3);
    await lock?.release();
    const results = await sent;
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(200));
    expect(new Set(results.map((r) => r.body.order_id)).size).toBe(1);
    const { rows } = await db.engine.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM sandbox.orders WHERE account_id = $1 AND client_order_id = $2",
      [acct, o.client_order_id],
    );
    expect(rows[0].n).toBe(1);
    const held = Number((await usdRow(acct)).held_amount);
    expect(held).toBeGreaterThan(300);
    expect(held).toBeLessThan(302); // 300.00 and one commission
    // The same id with another order, at once with repeats of the first: the first stays, the other is refused.
    const other = { ...o, limit_price: "31.00" };
    const mixed = await Promise.all([place(api, acct, [other]), place(api, acct, [o])]);
    expect(mixed.map((r) => r.status)).toEqual([417, 200]);
    expect(mixed[0].body.error_code).toBe("DUPLICATE_CLIENT_ORDER_ID");
    expect(Number((await usdRow(acct)).held_amount)).toBe(held);
  });

  it("a MARGIN account's buying power adds the loan value of its long stock to its cash", async () => {
    const acct = await newAccount("MARGIN", "1000.00");
    await setPrice(api, "KO", "50.00");
    const buy = stock({ symbol: "KO", order_type: "MARKET", limit_price: undefined, quantity: "10" });
    expect((await place(api, acct, [buy])).status).toBe(200);
    expect(await order(api, acct, buy.client_order_id as string)).toMatchObject({ status: "FILLED" });
    const { rows } = await db.engine.query<{ req: string | null }>(
      "SELECT profile->>'margin_requirement_long' AS req FROM sandbox.instruments WHERE market = 'US' AND symbol = 'KO'",
    );
    const loan = 10 * 50 * (1 - Number(rows[0].req ?? 1));
    expect(loan).toBeGreaterThan(0);
    const before = await usdRow(acct);
    const cashPower = Number(before.cash_balance) - Number(before.held_amount);
    const power = (Math.round(cashPower * 100) + Math.round(loan * 100)) / 100;
    // An order beyond it: refused, and the message gives cash and loan together.
    const huge = 100_000;
    const tooMuch = await place(api, acct, [stock({ symbol: "KO", limit_price: "40.00", quantity: String(huge) })]);
    expect(tooMuch.status).toBe(417);
    const m = /has USD ([\d.]+) buying power; the order needs ([\d.]+)\.$/.exec(tooMuch.body.message);
    expect(m?.[1]).toBe(power.toFixed(2));
    // One that needs more than the cash and less than cash and loan: placed, and its need held.
    const perShare = Number(m![2]) / huge;
    const quantity = Math.floor((cashPower + loan / 2) / perShare);
    expect(quantity * perShare).toBeGreaterThan(cashPower);
    expect((await place(api, acct, [stock({ symbol: "KO", limit_price: "40.00", quantity: String(quantity) })])).status).toBe(200);
    expect(Number((await usdRow(acct)).held_amount)).toBeGreaterThan(Number(before.held_amount) + cashPower);
  });

  it("an open order survives a restart on the same database and fills afterwards", async () => {
    const acct = (await api.op("listVirtualAccounts", "resource", { query: { page_size: 50, account_status: "ACTIVE" } })).body.data.find(
      (a: { account_type: string }) => a.account_type === "MARGIN",
    ).account_id;
    await setPrice(api, "KO", "60.00");
    const o = stock({ symbol: "KO", limit_price: "55.00", quantity: "2", time_in_force: "GTC" });
    expect((await place(api, acct, [o])).status).toBe(200);
    await sb.close();
    await start();
    expect((await order(api, acct, o.client_order_id as string)).status).toBe("SUBMITTED");
    await setPrice(api, "KO", "54.00");
    expect((await order(api, acct, o.client_order_id as string)).status).toBe("FILLED");
  });
});
