import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import { engines, masterAccountId, rid, startFixture, type Fixture } from "./fixture";

const LIST = "/broker/accounts/virtual-accounts/list";

describe.each(engines)("sandbox control API on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  });
  afterAll(() => f?.close());

  it("is signed like every call", async () => {
    expect(errorOf(await f.api.call("POST", "/sandbox/reset", { omit: ["x-signature"] }))).toEqual({
      status: 401,
      code: "MISSING_SIGNATURE",
    });
    expect(errorOf(await f.api.call("GET", "/sandbox/faults", { appSecret: "nope" }))).toEqual({ status: 401, code: "UNAUTHORIZED" });
  });

  it("switches 2FA auto-confirmation at run time; confirm without a token takes the newest PENDING one", async () => {
    expect((await f.api.call("POST", "/sandbox/settings", { body: { auto_confirm_2fa: false } })).body).toEqual({
      auto_confirm_2fa: false,
    });
    try {
      const created = await f.api.call("POST", "/openapi/auth/token/create", { body: {} });
      expect(created.body.status).toBe("PENDING");
      const confirmed = await f.api.call("POST", "/sandbox/tokens/confirm", { body: {} });
      expect(confirmed.body).toMatchObject({ token: created.body.token, status: "NORMAL" });
      expect(errorOf(await f.api.call("POST", "/sandbox/tokens/confirm", { body: {} }))).toEqual({ status: 417, code: "TOKEN_NOT_FOUND" });
      expect(errorOf(await f.api.call("POST", "/sandbox/settings", { body: { auto_confirm_2fa: "no" } }))).toEqual({
        status: 417,
        code: "ILLEGAL_PARAMETER",
      });
    } finally {
      await f.api.call("POST", "/sandbox/settings", { body: { auto_confirm_2fa: true } });
    }
    expect((await f.api.call("POST", "/openapi/auth/token/create", { body: {} })).body.status).toBe("NORMAL");
  });

  it("injects 5xx for N calls on matching paths only, then recovers", async () => {
    const add = await f.api.call("POST", "/sandbox/faults", {
      body: { path_pattern: "/broker/accounts/*", type: "ERROR", status: 503, count: 2 },
    });
    expect(add.body).toMatchObject({ fault_id: expect.any(String), remaining: 2 });
    expect((await f.api.call("GET", "/sandbox/faults")).body.data).toHaveLength(1);
    expect((await f.api.call("GET", "/broker/instruments/stocks/profiles/list")).status).toBe(200);
    expect(errorOf(await f.api.call("GET", LIST))).toEqual({ status: 503, code: "SERVICE_NOT_AVAILABLE" });
    expect(errorOf(await f.api.call("GET", LIST))).toEqual({ status: 503, code: "SERVICE_NOT_AVAILABLE" });
    expect((await f.api.call("GET", LIST)).status).toBe(200);
    await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: LIST, type: "ERROR", count: 1 } });
    expect(errorOf(await f.api.call("GET", LIST))).toEqual({ status: 500, code: "INTERNAL_ERROR" });
    for (const [status, code] of [
      [502, "BAD_GATEWAY"],
      [504, "GATEWAY_TIMEOUT"],
    ] as const) {
      await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: "/openapi/broker/*", type: "ERROR", status, count: 1 } });
      expect(errorOf(await f.api.call("GET", "/openapi/broker/account/nd/list"))).toEqual({ status, code });
    }
  });

  it("counts the calls each operation answered, not the control API's own, until reset", async () => {
    await f.api.call("POST", "/sandbox/calls/reset");
    await f.api.call("GET", LIST);
    await f.api.call("GET", LIST);
    await f.api.call("GET", "/broker/instruments/stocks/profiles/list");
    await f.api.call("GET", "/sandbox/faults");
    expect((await f.api.call("GET", "/sandbox/calls")).body).toEqual({
      data: { [`GET ${LIST}`]: 2, "GET /broker/instruments/stocks/profiles/list": 1 },
      total: 3,
    });
    await f.api.call("POST", "/sandbox/calls/reset");
    expect((await f.api.call("GET", "/sandbox/calls")).body).toEqual({ data: {}, total: 0 });
  });

  it("injects 429 and latency, and clears faults", async () => {
    await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: "*", type: "RATE_LIMIT", count: 1 } });
    const limited = await f.api.call("GET", LIST);
    expect(errorOf(limited)).toEqual({ status: 429, code: "TOO_MANY_REQUESTS" });
    expect(Object.keys(limited.body).sort()).toEqual(["error_code", "message"]);
    await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: "/broker/*", type: "LATENCY", latency_ms: 300, count: 1 } });
    const t = Date.now();
    expect((await f.api.call("GET", LIST)).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(290);
    await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: "*", type: "ERROR", count: 5 } });
    await f.api.call("POST", "/sandbox/faults/clear");
    expect((await f.api.call("GET", LIST)).status).toBe(200);
    for (const bad of [
      { type: "BOOM" },
      { type: "ERROR", status: 418 },
      { type: "LATENCY", latency_ms: -1 },
      { type: "ERROR", count: 0 },
      { type: "ERROR", path_pattern: "broker" },
    ]) {
      expect(errorOf(await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: "/*", ...bad } }))).toEqual({
        status: 417,
        code: "ILLEGAL_PARAMETER",
      });
    }
  });

  it("resets to the seed: created data disappears, seeded data comes back", async () => {
    const created = await f.api.op("createVirtualAccount", "resource", {
      body: {
        client_request_id: rid("r"),
        belong_account_id: masterAccountId(),
        external_account_number: "R1",
        account_type: "CASH",
        trading_permissions: ["US_STOCK_NORMAL"],
      },
    });
    expect(created.status).toBe(200);
    const count = async () => (await f.sb.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM sandbox.virtual_accounts")).rows[0].n;
    expect(await count()).toBe(41);
    expect((await f.api.call("POST", "/sandbox/reset")).body).toEqual({ reset: true });
    expect(await count()).toBe(40);
    // Tokens are wiped too: a new one is needed.
    expect(errorOf(await f.api.call("GET", LIST))).toEqual({ status: 401, code: "INVALID_TOKEN" });
    await f.api.login();
    expect(errorOf(await f.api.op("getVirtualAccount", "resource", { query: { account_id: created.body.account_id } }))).toEqual({
      status: 417,
      code: "ACCOUNT_NOT_FOUND",
    });
    expect((await f.api.op("getVirtualAccount", "resource", { query: { account_id: masterAccountId() } })).status).toBe(417);
    expect((await f.api.op("listVirtualAccounts", "legacy", { query: { account_number: "VBD1000001" } })).body).toHaveLength(1);
  });
  it("switches a module into outage or degradation until set back; probes stay out of the call counts", async () => {
    const ORDERS = "/broker/orders/open-orders/list";
    try {
      expect(errorOf(await f.api.call("POST", "/sandbox/modules/nope", { body: { state: "outage" } }))).toEqual({
        status: 417,
        code: "ILLEGAL_PARAMETER",
      });
      expect(errorOf(await f.api.call("POST", "/sandbox/modules/order", { body: { state: "degraded", error_rate: 2 } }))).toEqual({
        status: 417,
        code: "ILLEGAL_PARAMETER",
      });
      expect((await f.api.call("POST", "/sandbox/modules/order", { body: { state: "outage" } })).status).toBe(200);
      expect(errorOf(await f.api.call("GET", ORDERS, { query: { account_id: masterAccountId() } }))).toEqual({
        status: 503,
        code: "SERVICE_NOT_AVAILABLE",
      });
      // Only that module: the account list still answers.
      expect((await f.api.call("GET", LIST, { query: { page_size: "1" } })).status).toBe(200);
      await f.api.call("POST", "/sandbox/modules/order", { body: { state: "degraded", error_rate: 1, latency_ms: 5 } });
      expect((await f.api.call("GET", "/sandbox/modules")).body.data).toContainEqual({
        module: "order",
        state: "degraded",
        latency_ms: 5,
        error_rate: 1,
      });
      expect(errorOf(await f.api.call("GET", ORDERS, { query: { account_id: masterAccountId() } })).status).toBe(503);
      await f.api.call("POST", "/sandbox/modules/order", { body: { state: "normal" } });
      // The module answers again (the master account has no open orders to list: a business refusal, not a 503).
      expect((await f.api.call("GET", ORDERS, { query: { account_id: masterAccountId() } })).status).not.toBe(503);

      await f.api.call("POST", "/sandbox/calls/reset", { body: {} });
      await f.api.call("GET", LIST, { query: { page_size: "1" }, headers: { "x-brokerdesk-probe": "1" } });
      expect((await f.api.call("GET", "/sandbox/calls")).body.total).toBe(0);
    } finally {
      await f.api.call("POST", "/sandbox/modules/order", { body: { state: "normal" } });
    }
  });
});
