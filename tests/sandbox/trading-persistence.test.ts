import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { SignedClient } from "../helpers/signed-fetch";
import type { TestEngine } from "../helpers/engines";
import { engines, rid } from "./fixture";
import { clock, fund, order, place, setPrice, stock, US_CORE } from "./trading-helpers";

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

  it("16 concurrent placements on one CASH account: holds never exceed the cash", async () => {
    const masterId = (await api.op("listVirtualAccounts", "resource", { query: { page_size: 1 } })).body.data[0].belong_account_id;
    const created = await api.op("createVirtualAccount", "resource", {
      body: {
        client_request_id: rid("va"),
        belong_account_id: masterId,
        external_account_number: String(Date.now()).slice(-9),
        account_type: "CASH",
        trading_permissions: ["US_STOCK_NORMAL"],
      },
    });
    const acct = created.body.account_id;
    await fund(api, acct, "1000.00");
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
