import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRADING_OPERATIONS, type TradingOperationName } from "@/server/wire/trading-operations";
import { SignedClient } from "../helpers/signed-fetch";
import { engines, seedAccountId, startFixture, type Fixture } from "../sandbox/fixture";
import { bodyOf, jsonish } from "./arbitraries";
import { Tally } from "./tally";

/**
 * Abuse at every Trading API operation, signed with an account holder's key: random bodies and queries (half of
 * them naming the key's own account, so they reach the handlers), never a 5xx, every refusal in the upstream shape.
 */
const SEED = 20261124;
const RUNS = 30;
const tally = new Tally("sandbox-trading-api");
let f: Fixture;
let holder: SignedClient;
const own = seedAccountId(2);

beforeAll(async () => {
  f = await startFixture(engines[0]);
  const creds = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: own } })).body;
  holder = new SignedClient(f.sb.url, creds.app_key, creds.app_secret, "HMAC-SHA256");
  await holder.login();
}, 60_000);
afterAll(async () => {
  tally.print();
  await f?.close();
});

const FIELDS = [
  "account_id",
  "client_order_id",
  "symbol",
  "side",
  "order_type",
  "quantity",
  "limit_price",
  "combo_type",
  "new_orders",
  "modify_orders",
  "batch_orders",
  "market",
  "start",
  "end",
  "start_date",
  "end_date",
  "page_size",
  "sub_category",
  "category",
  "last_execution_id",
];
const bodyArb = fc
  .tuple(
    fc.boolean(),
    bodyOf(FIELDS, jsonish(fc.oneof(fc.string(), fc.dictionary(fc.constantFrom(...FIELDS), fc.string(), { maxKeys: 4 })))),
  )
  .map(([mine, b]) => (mine ? { ...b, account_id: own } : b));

describe("Trading API abuse", () => {
  it("random bodies and queries at every operation, both path styles: never a 5xx, every refusal in the error shape", async () => {
    for (const name of Object.keys(TRADING_OPERATIONS) as TradingOperationName[]) {
      const op = TRADING_OPERATIONS[name];
      const post = op.method === "POST";
      await fc.assert(
        fc.asyncProperty(bodyArb, fc.boolean(), async (body, legacy) => {
          const query = post
            ? undefined
            : Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : (JSON.stringify(v) ?? "")]));
          const r = await holder.call(op.method, legacy ? op.legacy : op.resource, post ? { body } : { query });
          tally.record(r, JSON.stringify(body).includes("\\u0000"));
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    expect(tally.samples).toEqual([]);
    expect(tally.fivexx).toBe(0);
    expect(tally.wronglyAccepted).toBe(0);
    expect(tally.badShape).toBe(0);
  }, 300_000);
});
