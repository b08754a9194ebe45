import { afterEach, describe, expect, it } from "vitest";
import { OPERATIONS } from "@/server/wire/operations";
import { configReply, startFakeUpstream, testClient } from "./helpers/fake-upstream";

let upstream: Awaited<ReturnType<typeof startFakeUpstream>> | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

describe.each(["HMAC-SHA1", "HMAC-SHA256"] as const)("signed requests on the wire, %s", (algorithm) => {
  it.each(["resource", "legacy"] as const)("%s paths: host with port, raw query values, digest of the exact body", async (pathStyle) => {
    upstream = await startFakeUpstream(
      (req) => configReply(req) ?? { json: req.method === "GET" ? [] : { client_order_id: "c1", order_id: "o1" } },
    );
    const { client } = testClient(upstream.url, { algorithm, pathStyle });
    // values that need percent-encoding in the URL but are signed raw
    await client.listVirtualAccounts({ name: "Zoë & Co/x=1 +", start_time: "2026-01-01T00:00:00.000+0000", page_size: 5 });
    await client.placeOrder({
      account_id: "VA1",
      new_orders: [
        {
          client_order_id: "c1",
          instrument_type: "EQUITY",
          market: "HK",
          symbol: "00700",
          order_type: "LIMIT",
          time_in_force: "DAY",
          side: "BUY",
          quantity: "100",
          limit_price: "321.40",
          sender_sub_id: "台北",
        },
      ],
    });
    const list = upstream.seen.find((s) => s.path === OPERATIONS.listVirtualAccounts[pathStyle])!;
    const place = upstream.seen.find((s) => s.path === OPERATIONS.placeOrder[pathStyle])!;
    for (const r of [list, place]) {
      expect(r.signatureValid).toBe(true);
      expect(r.headers.host).toBe(`127.0.0.1:${upstream.port}`);
      expect(r.headers["x-signature-algorithm"]).toBe(algorithm);
      expect(r.headers["x-signature-version"]).toBe("1.0");
      expect(r.headers["x-timestamp"]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(r.headers["x-version"]).toBe(pathStyle === "legacy" ? "v2" : "v3");
      expect(r.headers["x-app-secret"]).toBeUndefined();
    }
    expect(list.query.name).toBe("Zoë & Co/x=1 +");
    expect(list.body).toBe("");
    // compact JSON, non-ASCII as-is (ensure_ascii=False)
    expect(place.body).toContain('"sender_sub_id":"台北"');
    expect(place.body).not.toMatch(/": |, "/);
    expect(place.headers["content-type"]).toBe("application/json");
  });
});

describe("requests", () => {
  it("an empty POST body is {} and is signed", async () => {
    upstream = await startFakeUpstream(
      (req) => configReply(req) ?? { json: { token: "t", expires: Date.now() + 1000, status: "PENDING" } },
    );
    const { client } = testClient(upstream.url);
    await client.tokens.start("admin@example.com");
    const r = upstream.seen.find((s) => s.path === "/openapi/auth/token/create")!;
    expect(r.body).toBe("{}");
    expect(r.signatureValid).toBe(true);
  });

  it("invalid input never leaves the process", async () => {
    upstream = await startFakeUpstream((req) => configReply(req) ?? { json: {} });
    const { client } = testClient(upstream.url);
    await expect(
      client.createInstantFunding({ account_id: "VA1", client_request_id: "r1", type: "DEPOSIT", amount: "-5", currency: "USD" }),
    ).rejects.toMatchObject({ errorCode: "INVALID_REQUEST", status: 0 });
    await expect(
      client.createCashJournal({ from_account: "a", to_account: "b", client_request_id: "x".repeat(33), amount: "1", currency: "USD" }),
    ).rejects.toMatchObject({ errorCode: "INVALID_REQUEST" });
    expect(upstream.seen.filter((s) => s.path !== "/openapi/config")).toHaveLength(0);
  });

  it("a response that does not match the schema is INVALID_RESPONSE with the request id, no values", async () => {
    upstream = await startFakeUpstream((req) => configReply(req) ?? { json: { from_currency: "USD", to_currency: "HKD" } });
    const { client } = testClient(upstream.url);
    const e = await client.getFxRate({ from_currency: "USD", to_currency: "HKD" }).catch((x) => x);
    expect(e).toMatchObject({ errorCode: "INVALID_RESPONSE", requestId: expect.stringMatching(/^req-/) });
    expect(e.message).toContain("fx_rate");
  });
});
