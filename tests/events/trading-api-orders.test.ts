import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngines } from "../helpers/engines";
import { TradingSdkClient } from "../sandbox/trading-api-client";
import { ACCOUNTS, rid, setPrice } from "../sandbox/trading-helpers";
import { startEventsFixture, until, type EventsFixture } from "./helpers";
import { usStockOrder } from "../helpers/orders";

/**
 * An order an account holder places through the Trading API is an order of the sandbox like any other: the desk's
 * event consumer writes it (and its execution) into the read model the blotter reads, with no desk-side call.
 */
describe("Trading API orders in the desk's read model", () => {
  let f: EventsFixture;
  beforeAll(async () => {
    f = await startEventsFixture(testEngines()[0]);
    f.consumer();
  }, 120_000);
  afterAll(async () => f?.close());

  it("a filled Trading API order arrives as an order with its execution and events", async () => {
    const account = ACCOUNTS.margin;
    const creds = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: account } })).body;
    const app = new TradingSdkClient(f.sb.url, creds.app_key, creds.app_secret);
    await app.login();
    await setPrice(f.api, "KO", "60.00");
    const id = rid("ta");
    const placed = await app.place_order(account, [
      usStockOrder({ client_order_id: id, symbol: "KO", quantity: "3", limit_price: "61.00" }),
    ]);
    expect(placed.status).toBe(200);
    const row = await until(async () => {
      const { rows } = await f.db.engine.query<{ status: string; symbol: string; filled_quantity: string }>(
        "SELECT status, symbol, filled_quantity::text AS filled_quantity FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2",
        [account, id],
      );
      return rows[0]?.status === "FILLED" ? rows[0] : undefined;
    });
    expect(row).toMatchObject({ symbol: "KO", status: "FILLED" });
    expect(Number(row.filled_quantity)).toBe(3);
    const executions = await f.db.engine.query("SELECT 1 FROM brokerdesk.executions WHERE account_id = $1 AND client_order_id = $2", [
      account,
      id,
    ]);
    expect(executions.rows).toHaveLength(1);
  });
});
