import { afterEach, describe, expect, it } from "vitest";
import { BrokerError } from "@/server/broker/errors";
import { configReply, startFakeUpstream, testClient, type Handler } from "./helpers/fake-upstream";

const balance = { total_asset_currency: "USD", total_cash_balance: "100.00", account_currency_assets: [] };
let upstream: Awaited<ReturnType<typeof startFakeUpstream>> | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function start(handler: Handler) {
  upstream = await startFakeUpstream((req, n) => configReply(req) ?? handler(req, n));
  return upstream;
}
/** The upstream's 429 asking to wait `seconds` before the next call. */
const tooManyRequests = (seconds: string) => ({
  status: 429,
  headers: { "retry-after": seconds },
  json: { error_code: "TOO_MANY_REQUESTS", message: "slow down" },
});
const calls = (u: { seen: { path: string }[] }, path: string) => u.seen.filter((s) => s.path === path).length;

describe("retry policy (loopback server)", () => {
  it("retries a GET on 500 until it succeeds, with a fresh signature each time", async () => {
    let n = 0;
    const u = await start(() => (++n <= 2 ? { status: 500, json: { error_code: "INTERNAL_ERROR", message: "boom" } } : { json: balance }));
    const { client, logs } = testClient(u.url);
    const b = await client.getBalance({ account_id: "A1" });
    expect(b.total_cash_balance).toBe("100.00");
    const hits = u.seen.filter((s) => s.path === "/broker/assets/balances/get");
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.signatureValid)).toBe(true);
    expect(new Set(hits.map((h) => h.headers["x-signature-nonce"])).size).toBe(3);
    const failed = logs().filter((l) => l.msg === "broker call failed");
    expect(failed.map((l) => l.retrying)).toEqual([true, true]);
  });

  it("honours Retry-After on 429", async () => {
    let n = 0;
    const u = await start(() => (++n === 1 ? tooManyRequests("1") : { json: balance }));
    const { client } = testClient(u.url);
    const t0 = Date.now();
    await client.getBalance({ account_id: "A1" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(calls(u, "/broker/assets/balances/get")).toBe(2);
  });

  it("does not wait for a Retry-After beyond the cap: the 429 goes back to the caller", async () => {
    const u = await start(() => tooManyRequests("120"));
    const { client } = testClient(u.url);
    const e = await client.getBalance({ account_id: "A1" }).catch((x) => x);
    expect(e).toBeInstanceOf(BrokerError);
    expect(e.status).toBe(429);
    expect(e.retryAfterMs).toBe(120_000);
    expect(calls(u, "/broker/assets/balances/get")).toBe(1);
  });

  it("times out a hanging answer and retries", async () => {
    let n = 0;
    const u = await start(() => (++n <= 2 ? { hang: true } : { json: balance }));
    const { client, logs } = testClient(u.url, { timeoutMs: 150 });
    await client.getBalance({ account_id: "A1" });
    expect(calls(u, "/broker/assets/balances/get")).toBe(3);
    expect(logs().filter((l) => l.errorCode === "TIMEOUT")).toHaveLength(2);
  });

  it("gives up after maxRetries with a retryable BrokerError", async () => {
    const u = await start(() => ({ status: 503, json: { error_code: "SERVICE_NOT_AVAILABLE", message: "down" } }));
    const { client } = testClient(u.url, { maxRetries: 2 });
    const e = await client.getBalance({ account_id: "A1" }).catch((x) => x);
    expect(e).toMatchObject({ errorCode: "SERVICE_NOT_AVAILABLE", status: 503, retryable: true, attempts: 3, requestId: "req-4" });
    expect(calls(u, "/broker/assets/balances/get")).toBe(3);
  });

  it("gives up on a hang after maxRetries with TIMEOUT", async () => {
    const u = await start(() => ({ hang: true }));
    const { client } = testClient(u.url, { timeoutMs: 100, maxRetries: 1 });
    const e = await client.getBalance({ account_id: "A1" }).catch((x) => x);
    expect(e).toMatchObject({ errorCode: "TIMEOUT", retryable: true, attempts: 2 });
  });

  it("never retries a 417 business error", async () => {
    const u = await start(() => ({ status: 417, json: { error_code: "ILLEGAL_PARAMETER", message: "bad" } }));
    const { client } = testClient(u.url);
    await expect(client.getBalance({ account_id: "A1" })).rejects.toMatchObject({ errorCode: "ILLEGAL_PARAMETER", attempts: 1 });
    expect(calls(u, "/broker/assets/balances/get")).toBe(1);
  });

  it("never retries a POST that is not idempotent by a client id (cancel, replace)", async () => {
    const u = await start(() => ({ status: 500, json: { error_code: "INTERNAL_ERROR", message: "boom" } }));
    const { client } = testClient(u.url);
    await expect(client.cancelOrder({ account_id: "A1", client_order_id: "c1" })).rejects.toMatchObject({ status: 500, attempts: 1 });
    await expect(
      client.replaceOrder({ account_id: "A1", modify_orders: [{ combo_type: "NORMAL", client_order_id: "c1", limit_price: "10" }] }),
    ).rejects.toMatchObject({ attempts: 1 });
    expect(calls(u, "/broker/orders/cancel")).toBe(1);
    expect(calls(u, "/broker/orders/replace")).toBe(1);
  });

  it("retries a network error (connection refused)", async () => {
    const u = await start(() => ({ json: balance }));
    const url = u.url;
    await u.close();
    upstream = undefined;
    const { client } = testClient(url, { maxRetries: 1 });
    await expect(client.getBalance({ account_id: "A1" })).rejects.toMatchObject({ errorCode: "NETWORK_ERROR", attempts: 2 });
  });

  it("an abort during the wait between attempts ends the call as ABORTED, with no further attempt", async () => {
    const u = await start(() => tooManyRequests("5"));
    const { client } = testClient(u.url);
    const ac = new AbortController();
    const call = client.getBalance({ account_id: "A1" }, { signal: ac.signal });
    // The first answer is in and the client waits its 5 s: abort then.
    const waiting = async () => calls(u, "/broker/assets/balances/get") === 1;
    while (!(await waiting())) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    await expect(call).rejects.toMatchObject({ errorCode: "ABORTED", attempts: 1 });
    expect(calls(u, "/broker/assets/balances/get")).toBe(1);
  });

  it("stops at once when the caller aborts", async () => {
    const u = await start(() => ({ hang: true }));
    const { client } = testClient(u.url, { timeoutMs: 5_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(client.getBalance({ account_id: "A1" }, { signal: ac.signal })).rejects.toMatchObject({
      errorCode: "ABORTED",
      attempts: 1,
    });
  });
});

describe("what a failed call logs", () => {
  const refusal = { status: 417, json: { error_code: "ILLEGAL_PARAMETER", message: "account_id is required" } };

  it("warns of a refused call, but logs a status probe's refusal (the module answered) as information", async () => {
    const u = await start(() => refusal);
    const { client, logs } = testClient(u.url);
    await client.transport.call("getBalance", { probe: true }).catch(() => undefined);
    await client.transport.call("getBalance", {}).catch(() => undefined);
    const lines = logs().filter((l) => l.operation === "getBalance");
    expect(lines.map((l) => [l.level, l.msg, l.errorCode])).toEqual([
      [30, "broker probe answered", "ILLEGAL_PARAMETER"],
      [40, "broker call failed", "ILLEGAL_PARAMETER"],
    ]);
  });

  it("warns of a probe that got no answer: the module may be down", async () => {
    const u = await start(() => ({ status: 503, json: { error_code: "SERVICE_NOT_AVAILABLE", message: "down" } }));
    const { client, logs } = testClient(u.url, { maxRetries: 0 });
    await client.transport.call("getBalance", { probe: true }).catch(() => undefined);
    expect(
      logs()
        .filter((l) => l.operation === "getBalance")
        .map((l) => [l.level, l.msg]),
    ).toEqual([[40, "broker call failed"]]);
  });
});
