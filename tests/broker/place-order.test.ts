import { afterEach, describe, expect, it } from "vitest";
import { newClientId } from "@/lib/ids";
import { clientStockOrder } from "../helpers/orders";
import { configReply, startFakeUpstream, testClient } from "./helpers/fake-upstream";

let upstream: Awaited<ReturnType<typeof startFakeUpstream>> | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const order = (id: string) => ({
  account_id: "VA1",
  new_orders: [clientStockOrder({ client_order_id: id, quantity: "10", limit_price: "187.25" })],
});

describe("place order is never sent twice with different ids", () => {
  it("re-sends the same bytes (same client_order_id) after 500, a hang and a 429", async () => {
    const ids: string[] = [];
    const bodies: string[] = [];
    let n = 0;
    upstream = await startFakeUpstream((req) => {
      const c = configReply(req);
      if (c) return c;
      const body = JSON.parse(req.body) as { new_orders: { client_order_id: string }[] };
      ids.push(...body.new_orders.map((o) => o.client_order_id));
      bodies.push(req.body);
      n++;
      if (n === 1) return { status: 500, json: { error_code: "INTERNAL_ERROR", message: "x" } };
      if (n === 2) return { hang: true };
      if (n === 3) return { status: 429, headers: { "retry-after": "0" }, json: { error_code: "TOO_MANY_REQUESTS", message: "x" } };
      return { json: { client_order_id: body.new_orders[0].client_order_id, order_id: "ORD-1" } };
    });
    const { client } = testClient(upstream.url, { timeoutMs: 150, maxRetries: 5 });
    const id = newClientId("ord");
    const acks = await client.placeOrder(order(id));
    expect(acks).toEqual([{ client_order_id: id, order_id: "ORD-1" }]);
    expect(ids).toHaveLength(4);
    expect(new Set(ids)).toEqual(new Set([id]));
    expect(new Set(bodies).size).toBe(1); // byte for byte
    const hits = upstream.seen.filter((s) => s.path === "/broker/orders/place");
    expect(hits.every((h) => h.signatureValid)).toBe(true);
  });

  it("two calls with two different ids are two orders; the client never invents an id", async () => {
    upstream = await startFakeUpstream((req) => configReply(req) ?? { json: { client_order_id: "x", order_id: "y" } });
    const { client } = testClient(upstream.url);
    // a missing id is a validation error, not a silently generated one
    await expect(
      client.placeOrder({ ...order(""), new_orders: [{ ...order("a").new_orders[0], client_order_id: undefined as never }] }),
    ).rejects.toMatchObject({ errorCode: "INVALID_REQUEST" });
    expect(upstream.seen.filter((s) => s.path === "/broker/orders/place")).toHaveLength(0);
  });

  it("a 417 answer to place is final (no retry)", async () => {
    upstream = await startFakeUpstream(
      (req) =>
        configReply(req) ?? {
          status: 417,
          json: { error_code: "OPENAPI_NO_NIGHT_TRADING_TIME", message: "The current period does not support placing night orders" },
        },
    );
    const { client } = testClient(upstream.url);
    const e = await client.placeOrder(order(newClientId())).catch((x) => x);
    expect(e.userMessage).toBe("Night orders cannot be placed at this time.");
    expect(upstream.seen.filter((s) => s.path === "/broker/orders/place")).toHaveLength(1);
  });
});
