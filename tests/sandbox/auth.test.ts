import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SignedClient, errorOf } from "../helpers/signed-fetch";
import { engines, startFixture, type Fixture } from "./fixture";

const LIST = "/broker/accounts/virtual-accounts/list";
const LEGACY_LIST = "/openapi/broker/account/nd/list";

describe.each(engines)("sandbox authentication on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  });
  afterAll(() => f?.close());

  it("serves /health unsigned, with a unique x-request-id on every response", async () => {
    const a = await fetch(`${f.sb.url}/health`);
    const b = await fetch(`${f.sb.url}/health`);
    expect(a.status).toBe(200);
    expect(a.headers.get("x-request-id")).toBeTruthy();
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
    const err = await f.api.call("GET", LIST, { omit: ["x-app-key"] });
    expect(err.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(["HMAC-SHA1", "HMAC-SHA256"] as const)("accepts %s signatures on GET with query and on POST with a body", async (algorithm) => {
    const get = await f.api.call("GET", LIST, { algorithm, query: { page_size: 2, account_status: "ACTIVE" } });
    expect(get.status).toBe(200);
    expect(get.body.data).toHaveLength(2);
    const post = await f.api.call("POST", "/openapi/auth/token/check", { algorithm, body: { token: f.api.token } });
    expect(post.status).toBe(200);
    expect(post.body.status).toBe("NORMAL");
  });

  it("accepts x-version v2, v3 and none; rejects others with VERSION_NOT_SUPPORTED", async () => {
    for (const version of ["v2", "v3", null]) expect((await f.api.call("GET", LIST, { version })).status).toBe(200);
    const bad = await f.api.call("GET", LIST, { version: "v4" });
    expect(errorOf(bad)).toEqual({ status: 401, code: "VERSION_NOT_SUPPORTED" });
    expect(Object.keys(bad.body).sort()).toEqual(["error_code", "message"]);
  });

  it.each([
    ["x-app-key", "MISSING_APP_KEY"],
    ["x-signature", "MISSING_SIGNATURE"],
    ["x-signature-algorithm", "MISSING_ALGORITHM"],
    ["x-signature-nonce", "MISSING_NONCE"],
    ["x-timestamp", "MISSING_TIMESTAMP"],
  ])("a request without %s is 401 %s", async (header, code) => {
    const r = await f.api.call("GET", LIST, { omit: [header] });
    expect(errorOf(r)).toEqual({ status: 401, code });
    expect(r.body.message).toBe(`Header ${header} is missing.`);
  });

  it("rejects a bad signature, a wrong secret, a tampered body, query or host, and an unknown app key", async () => {
    const invalid = { status: 401, code: "UNAUTHORIZED" };
    expect(errorOf(await f.api.call("GET", LIST, { headers: { "x-signature": "AAAA" } }))).toEqual(invalid);
    expect(errorOf(await f.api.call("GET", LIST, { appSecret: "wrong-secret" }))).toEqual(invalid);
    expect(errorOf(await f.api.call("POST", "/openapi/auth/token/check", { body: { token: "a" }, signBody: '{"token":"b"}' }))).toEqual(
      invalid,
    );
    expect(errorOf(await f.api.call("GET", LIST, { signHost: "api.webull.hk" }))).toEqual(invalid);
    const stranger = new SignedClient(f.sb.url, "unknown-key", "brokerdesk-demo-secret");
    const r = await stranger.call("GET", LIST);
    expect(errorOf(r)).toEqual(invalid);
    expect(r.body.message).toBe("Header x-signature is invalid.");
    // The body digest covers the exact bytes: the same JSON with a space is another body.
    expect(
      errorOf(await f.api.call("POST", "/openapi/auth/token/check", { rawBody: '{"token": "a"}', signBody: '{"token":"a"}' })),
    ).toEqual(invalid);
  });

  it("signs the decoded query values, repeated keys joined with commas", async () => {
    const r = await f.api.call("GET", LIST, { query: { name: "o l", page_size: 1 } });
    expect(r.status).toBe(200);
  });

  it("enforces the ±5 minute clock window and the timestamp format", async () => {
    const now = Date.now();
    expect((await f.api.call("GET", LIST, { now: new Date(now - 4 * 60_000) })).status).toBe(200);
    expect(errorOf(await f.api.call("GET", LIST, { now: new Date(now - 6 * 60_000) }))).toEqual({
      status: 401,
      code: "CLOCK_SKEW_EXCEEDED",
    });
    expect(errorOf(await f.api.call("GET", LIST, { now: new Date(now + 6 * 60_000) }))).toEqual({
      status: 401,
      code: "CLOCK_SKEW_EXCEEDED",
    });
    expect(errorOf(await f.api.call("GET", LIST, { headers: { "x-timestamp": "yesterday" } }))).toEqual({
      status: 401,
      code: "ILLEAGAL_TIMESTAMP",
    });
  });

  it("rejects a reused nonce with DUPLICATE_NONCE and an unknown algorithm", async () => {
    const nonce = `n${Date.now()}`;
    expect((await f.api.call("GET", LIST, { nonce })).status).toBe(200);
    expect(errorOf(await f.api.call("GET", LIST, { nonce }))).toEqual({ status: 401, code: "DUPLICATE_NONCE" });
    const r = await f.api.call("GET", LIST, { headers: { "x-signature-algorithm": "SHA256withRSA" } });
    expect(errorOf(r)).toEqual({ status: 401, code: "SIGNATURE_ALGORITHM_NOT_SUPPORTED" });
  });

  it("requires a NORMAL x-access-token on Broker API calls but not on config, token and control calls", async () => {
    expect(errorOf(await f.api.call("GET", LIST, { token: null }))).toEqual({ status: 401, code: "INVALID_TOKEN" });
    expect(errorOf(await f.api.call("GET", LIST, { token: "not-a-token" }))).toEqual({ status: 401, code: "INVALID_TOKEN" });
    const config = await f.api.call("GET", "/openapi/config", { token: null });
    expect(config.body).toEqual({ token_check_enabled: true });
    expect((await f.api.call("GET", "/sandbox/faults", { token: null })).status).toBe(200);
    expect((await f.api.call("GET", LEGACY_LIST, { version: "v2" })).status).toBe(200);
  });

  it("issues NORMAL tokens in demo mode; check, refresh and create-with-token return it", async () => {
    const created = await f.api.call("POST", "/openapi/auth/token/create", { body: {}, token: null });
    expect(created.body.status).toBe("NORMAL");
    expect(typeof created.body.token).toBe("string");
    expect(created.body.expires).toBeGreaterThan(Date.now() + 14 * 86_400_000);
    const again = await f.api.call("POST", "/openapi/auth/token/create", { body: { token: created.body.token } });
    expect(again.body.token).toBe(created.body.token);
    const refreshed = await f.api.call("POST", "/openapi/auth/token/refresh", { body: { token: created.body.token } });
    expect(refreshed.body).toMatchObject({ token: created.body.token, status: "NORMAL" });
    const unknown = await f.api.call("POST", "/openapi/auth/token/check", { body: { token: "nope" } });
    expect(unknown.body.status).toBe("INVALID");
  });

  it("answers an unknown route with 404 NOT_FOUND and bad JSON with 417 ILLEGAL_PARAMETER", async () => {
    expect(errorOf(await f.api.call("GET", "/broker/nothing/here"))).toEqual({ status: 404, code: "NOT_FOUND" });
    const r = await f.api.call("POST", "/broker/journals/cash-journals/create", { rawBody: "{not json" });
    expect(errorOf(r)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });
});

describe.each(engines)("token 2FA lifecycle on $name", (te) => {
  let f: Fixture;
  let clock = Date.now();
  beforeAll(async () => {
    f = await startFixture(te, { autoConfirm2fa: false, tokenRateLimit: 10, now: () => new Date(clock) });
  });
  afterAll(() => f?.close());
  const at = () => new Date(clock);

  it("starts PENDING, is refused until confirmed, becomes NORMAL on the control call", async () => {
    const t = await f.api.call("POST", "/openapi/auth/token/create", { body: {}, now: at() });
    expect(t.body.status).toBe("PENDING");
    expect(errorOf(await f.api.call("GET", LIST, { token: t.body.token, now: at() }))).toEqual({ status: 401, code: "INVALID_TOKEN" });
    const confirmed = await f.api.call("POST", "/sandbox/tokens/confirm", { body: { token: t.body.token }, now: at() });
    expect(confirmed.body.status).toBe("NORMAL");
    expect((await f.api.call("GET", LIST, { token: t.body.token, now: at() })).status).toBe(200);

    // Unused for more than 15 days: INVALID.
    clock += 16 * 86_400_000;
    const check = await f.api.call("POST", "/openapi/auth/token/check", { body: { token: t.body.token }, now: at() });
    expect(check.body.status).toBe("INVALID");
    expect(errorOf(await f.api.call("GET", LIST, { token: t.body.token, now: at() }))).toEqual({ status: 401, code: "INVALID_TOKEN" });
  });

  it("refuses a token made INVALID in the database within the token cache's 5 s, however often it is used meanwhile", async () => {
    const t = await f.api.call("POST", "/openapi/auth/token/create", { body: {}, now: at() });
    await f.api.call("POST", "/sandbox/tokens/confirm", { body: { token: t.body.token }, now: at() });
    expect((await f.api.call("GET", LIST, { token: t.body.token, now: at() })).status).toBe(200);
    await f.sb.engine.query("UPDATE sandbox.tokens SET status = 'INVALID' WHERE token = $1", [t.body.token]);
    // The cache's few seconds are counted from the token's read, not from its last use: calls every 2 s (the
    // wall clock moved by hand) do not keep the cached NORMAL row alive.
    const started = Date.now();
    const wall = vi.spyOn(Date, "now");
    try {
      const statuses: number[] = [];
      for (const s of [2, 4, 6]) {
        wall.mockReturnValue(started + s * 1000);
        statuses.push((await f.api.call("GET", LIST, { token: t.body.token, now: at() })).status);
      }
      expect(statuses[2]).toBe(401);
    } finally {
      wall.mockRestore();
    }
    expect(errorOf(await f.api.call("GET", LIST, { token: t.body.token, now: at() }))).toEqual({ status: 401, code: "INVALID_TOKEN" });
  });

  it("expires a token not confirmed within 5 minutes", async () => {
    const t = await f.api.call("POST", "/openapi/auth/token/create", { body: {}, now: at() });
    clock += 4 * 60_000;
    expect((await f.api.call("POST", "/openapi/auth/token/check", { body: { token: t.body.token }, now: at() })).body.status).toBe(
      "PENDING",
    );
    clock += 2 * 60_000;
    expect((await f.api.call("POST", "/openapi/auth/token/check", { body: { token: t.body.token }, now: at() })).body.status).toBe(
      "EXPIRED",
    );
    const late = await f.api.call("POST", "/sandbox/tokens/confirm", { body: { token: t.body.token }, now: at() });
    expect(errorOf(late)).toEqual({ status: 417, code: "TOKEN_NOT_PENDING" });
    expect(errorOf(await f.api.call("POST", "/sandbox/tokens/confirm", { body: { token: "missing" }, now: at() }))).toEqual({
      status: 417,
      code: "TOKEN_NOT_FOUND",
    });
  });

  it("limits token create and check to 10 per 30 s with 429 TOO_MANY_REQUESTS", async () => {
    clock += 60_000;
    const results = [];
    for (let i = 0; i < 11; i += 1)
      results.push((await f.api.call("POST", "/openapi/auth/token/check", { body: { token: "x" }, now: at() })).status);
    expect(results.slice(0, 10).every((s) => s === 200)).toBe(true);
    const r = await f.api.call("POST", "/openapi/auth/token/check", { body: { token: "x" }, now: at() });
    expect(errorOf(r)).toEqual({ status: 429, code: "TOO_MANY_REQUESTS" });
  });
});

describe("token checks off", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(engines[0], { tokenCheck: false });
  });
  afterAll(() => f?.close());

  it("reports token_check_enabled false and serves calls without a token", async () => {
    expect((await f.api.call("GET", "/openapi/config")).body).toEqual({ token_check_enabled: false });
    expect((await f.api.call("GET", LIST, { token: null })).status).toBe(200);
  });
});
