import { afterEach, describe, expect, it } from "vitest";
import { prepareAppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import { DbTokenStore, MemoryTokenStore } from "@/server/broker/token-store";
import { createSandboxControl } from "@/server/sandbox-control";
import { APP_KEY, APP_SECRET, startFakeUpstream, testClient, type SeenRequest } from "./helpers/fake-upstream";

let upstream: Awaited<ReturnType<typeof startFakeUpstream>> | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const DAY = 86_400_000;
const balance = { account_currency_assets: [] };

/** An upstream with token checks on: tokens t1, t2… start PENDING (or NORMAL) and turn NORMAL after `confirmAfter` checks. */
function tokenUpstream(opts: { startStatus?: "PENDING" | "NORMAL"; confirmAfter?: number; expiresIn?: number; rejectToken?: string } = {}) {
  let created = 0;
  let checks = 0;
  const state = new Map<string, string>();
  return (req: SeenRequest) => {
    const body = req.body ? (JSON.parse(req.body) as { token?: string }) : {};
    const view = (token: string) => ({
      json: { token, expires: Date.now() + (opts.expiresIn ?? 15 * DAY), status: state.get(token) ?? "INVALID" },
    });
    switch (req.path) {
      case "/openapi/config":
        return { json: { token_check_enabled: true } };
      case "/openapi/auth/token/create": {
        const t = `t${++created}`;
        state.set(t, opts.startStatus ?? "PENDING");
        return view(t);
      }
      case "/openapi/auth/token/check":
        if (++checks >= (opts.confirmAfter ?? 1) && state.get(body.token!) === "PENDING") state.set(body.token!, "NORMAL");
        return view(body.token!);
      case "/openapi/auth/token/refresh": {
        const t = `${body.token}r`;
        state.set(t, "NORMAL");
        return { json: { token: t, expires: Date.now() + 15 * DAY, status: "NORMAL" } };
      }
      case "/sandbox/tokens/confirm": {
        // Without a token: the newest pending one, as the holder's phone would.
        const t = body.token ?? [...state].reverse().find(([, s]) => s === "PENDING")?.[0];
        if (!t) return { status: 417, json: { error_code: "TOKEN_NOT_FOUND", message: "No pending token." } };
        state.set(t, "NORMAL");
        return view(t);
      }
      default: {
        const tok = String(req.headers["x-access-token"] ?? "");
        if (state.get(tok) !== "NORMAL" || tok === opts.rejectToken)
          return { status: 401, json: { error_code: "INVALID_TOKEN", message: "Header x-access-token is missing or invalid." } };
        return { json: balance };
      }
    }
  };
}
const paths = (u: { seen: SeenRequest[] }) => u.seen.map((s) => s.path);
/** The sandbox's adapter stands in for the holder's 2FA: the pending token is confirmed at the upstream. */
const confirmPending = (baseUrl: string) =>
  createSandboxControl({
    baseUrl,
    appKey: APP_KEY,
    appSecret: APP_SECRET,
    algorithm: "HMAC-SHA256",
    timeoutMs: 2_000,
  }).confirmPendingToken();

describe("token manager", () => {
  it("a real upstream without a token: NO_TOKEN, and no token is created behind anyone's back", async () => {
    upstream = await startFakeUpstream(tokenUpstream());
    const { client } = testClient(upstream.url, { kind: "external" });
    await expect(client.getBalance({ account_id: "VA1" })).rejects.toMatchObject({
      errorCode: "NO_TOKEN",
      userMessage: expect.stringMatching(/Admin → Connection/),
    });
    expect(paths(upstream)).not.toContain("/openapi/auth/token/create");
    expect((await client.tokens.status()).state).toBe("NONE");
  });

  it("start → PENDING, poll check until NORMAL, then every call carries x-access-token", async () => {
    upstream = await startFakeUpstream(tokenUpstream({ confirmAfter: 3 }));
    const store = new MemoryTokenStore();
    const { client } = testClient(upstream.url, { kind: "external" }, { tokenStore: store });
    const started = await client.tokens.start("admin@example.com");
    expect(started).toMatchObject({ state: "PENDING", createdBy: "admin@example.com" });
    expect(JSON.stringify(started)).not.toContain('"t1"'); // the status view never carries the token
    await expect(client.getBalance({ account_id: "VA1" })).rejects.toMatchObject({ errorCode: "TOKEN_PENDING" });
    const done = await client.tokens.waitUntilNormal({ intervalMs: 10, timeoutMs: 2_000 });
    expect(done.state).toBe("NORMAL");
    expect(store.rows[0]).toMatchObject({ token: "t1", status: "NORMAL" });
    await client.getBalance({ account_id: "VA1" });
    expect(upstream.seen.at(-1)!.headers["x-access-token"]).toBe("t1");
    expect(upstream.seen.at(-1)!.signatureValid).toBe(true);
  });

  it("the sandbox gets a token automatically; the 2FA confirm control works when auto-confirm is off", async () => {
    upstream = await startFakeUpstream(tokenUpstream({ startStatus: "NORMAL" }));
    const { client } = testClient(upstream.url, { kind: "sandbox" });
    await client.getBalance({ account_id: "VA1" });
    expect(upstream.seen.at(-1)!.headers["x-access-token"]).toBe("t1");

    await upstream.close();
    upstream = await startFakeUpstream(tokenUpstream({ startStatus: "PENDING", confirmAfter: 1_000 }));
    const { client: c2 } = testClient(upstream.url, { kind: "sandbox" });
    expect((await c2.tokens.start("admin")).state).toBe("PENDING");
    // The sandbox's adapter stands in for the holder's 2FA; the client then reads the token's state as for any upstream.
    await confirmPending(upstream.url);
    expect((await c2.tokens.check()).state).toBe("NORMAL");
    await c2.getBalance({ account_id: "VA1" });
    expect(upstream.seen.at(-1)!.headers["x-access-token"]).toBe("t1");
  });

  it("in the sandbox, a token waiting for its 2FA is left to it: calls meanwhile are refused, asking about it once every 5 s", async () => {
    upstream = await startFakeUpstream(tokenUpstream({ startStatus: "PENDING", confirmAfter: 1_000 }));
    const { client } = testClient(upstream.url, { kind: "sandbox" });
    expect((await client.tokens.start("admin")).state).toBe("PENDING");
    for (let i = 0; i < 4; i++)
      await expect(client.getBalance({ account_id: "VA1" })).rejects.toMatchObject({ errorCode: "TOKEN_PENDING" });
    // No token of the sandbox's own over the admin's, and one check for the four calls (the budget stays the page's).
    expect(paths(upstream).filter((p) => p === "/openapi/auth/token/create")).toHaveLength(1);
    expect(paths(upstream).filter((p) => p === "/openapi/auth/token/check")).toHaveLength(1);
    await confirmPending(upstream.url);
    expect((await client.tokens.check()).state).toBe("NORMAL");
    await client.getBalance({ account_id: "VA1" });
    expect(upstream.seen.at(-1)!.headers["x-access-token"]).toBe("t1");
  });

  it("refreshes a token that is about to expire, then uses the new one", async () => {
    upstream = await startFakeUpstream(tokenUpstream({ startStatus: "NORMAL", expiresIn: 3_600_000 }));
    const { client } = testClient(upstream.url, { kind: "external" });
    await client.tokens.start("admin");
    await client.getBalance({ account_id: "VA1" });
    expect(paths(upstream)).toContain("/openapi/auth/token/refresh");
    expect(upstream.seen.at(-1)!.headers["x-access-token"]).toBe("t1r");
  });

  it("INVALID_TOKEN marks the token INVALID; the sandbox gets a new one and the call is retried once", async () => {
    upstream = await startFakeUpstream(tokenUpstream({ startStatus: "NORMAL", rejectToken: "t1" }));
    const store = new MemoryTokenStore();
    const { client } = testClient(upstream.url, { kind: "sandbox" }, { tokenStore: store });
    await client.getBalance({ account_id: "VA1" });
    expect(store.rows.map((r) => [r.token, r.status])).toEqual([
      ["t1", "INVALID"],
      ["t2", "NORMAL"],
    ]);

    await upstream.close();
    upstream = await startFakeUpstream(tokenUpstream({ startStatus: "NORMAL", rejectToken: "t1" }));
    const ext = testClient(upstream.url, { kind: "external" });
    await ext.client.tokens.start("admin");
    await expect(ext.client.getBalance({ account_id: "VA1" })).rejects.toMatchObject({ errorCode: "INVALID_TOKEN", status: 401 });
    expect((await ext.client.tokens.status()).state).toBe("INVALID");
  });

  it("no token header at all when the upstream does not check tokens", async () => {
    upstream = await startFakeUpstream((req) =>
      req.path === "/openapi/config" ? { json: { token_check_enabled: false } } : { json: balance },
    );
    const { client } = testClient(upstream.url, { kind: "sandbox" });
    await client.getBalance({ account_id: "VA1" });
    expect(upstream.seen.at(-1)!.headers["x-access-token"]).toBeUndefined();
    expect((await client.tokens.status()).state).toBe("NOT_REQUIRED");
  });

  it("the DB token store keeps the latest token per upstream and app key", async () => {
    const engine = await openEngine({});
    try {
      const db = await prepareAppDb(engine);
      const store = new DbTokenStore(async () => db);
      const scope = { baseUrl: "http://a", appKey: "k" };
      expect(await store.latest(scope)).toBeUndefined();
      await store.insert(scope, { token: "old", status: "EXPIRED", expiresAt: null, createdBy: "x" });
      await new Promise((r) => setTimeout(r, 5));
      await store.insert(scope, { token: "new", status: "PENDING", expiresAt: new Date(Date.now() + 300_000), createdBy: "admin" });
      await store.insert(
        { baseUrl: "http://other", appKey: "k" },
        { token: "elsewhere", status: "NORMAL", expiresAt: null, createdBy: null },
      );
      await store.update(scope, "new", { token: "newer", status: "NORMAL", expiresAt: new Date("2030-01-01T00:00:00Z") });
      expect(await store.latest(scope)).toMatchObject({
        token: "newer",
        status: "NORMAL",
        createdBy: "admin",
        expiresAt: new Date("2030-01-01T00:00:00Z"),
      });
    } finally {
      await engine.close();
    }
  });
});
