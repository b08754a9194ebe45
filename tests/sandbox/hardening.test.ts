import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maskSecret, MAX_BODY_BYTES } from "@/server/sandbox/input-limits";
import { signedHostCandidates } from "@/server/sandbox/auth";
import { SignedClient } from "../helpers/signed-fetch";
import { newAccount, rid, w8ben, type Fixture } from "./fixture";
import { ACCOUNTS, place, startTrading, stock } from "./trading-helpers";

/**
 * Bad input never breaks the sandbox: every refusal is a 4xx in the upstream's {error_code, message} shape, naming
 * the field, and nothing is stored.
 */
let f: Fixture;
beforeAll(async () => {
  f = await startTrading();
}, 60_000);
afterAll(async () => f?.close());

const shape = (r: { status: number; body: unknown }) => ({
  status: r.status,
  code: (r.body as { error_code?: string }).error_code,
  message: String((r.body as { message?: string }).message ?? ""),
});
const account = (over: Record<string, unknown> = {}) =>
  newAccount({ client_request_id: rid("h"), external_account_number: `H${Math.floor(Math.random() * 1e8)}`, ...over });

describe("sandbox input limits", () => {
  it.each([1_000, 100_000])("a body nested %i deep is a 417, not a 500", async (depth) => {
    const rawBody = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const r = await f.api.op("createCashJournal", "resource", { rawBody });
    expect(shape(r)).toMatchObject({ status: 417, code: "ILLEGAL_PARAMETER" });
  });

  it.each([
    ["account_id (query)", () => f.api.op("getBalance", "resource", { query: { account_id: "a\u0000b" } }), "account_id"],
    ["symbol", () => place(f.api, ACCOUNTS.margin, [stock({ symbol: "AA\u0000PL" })]), "symbol"],
    ["side", () => place(f.api, ACCOUNTS.margin, [stock({ side: "BUY\u0000" })]), "side"],
    ["order_type", () => place(f.api, ACCOUNTS.margin, [stock({ order_type: "LIM\u0000IT" })]), "order_type"],
    ["client_order_id", () => place(f.api, ACCOUNTS.margin, [stock({ client_order_id: "x\u0000y" })]), "client_order_id"],
    [
      "journal accounts",
      () =>
        f.api.op("createCashJournal", "resource", {
          body: { from_account: "a\u0000", to_account: ACCOUNTS.cash, client_request_id: rid("j"), amount: "1", currency: "USD" },
        }),
      "from_account",
    ],
    [
      "W-8BEN name",
      () => f.api.op("createVirtualAccount", "resource", { body: account({ w8ben_info: { ...w8ben, first_name: "A\u0000da" } }) }),
      "first_name",
    ],
    [
      "tax id",
      () => f.api.op("createVirtualAccount", "resource", { body: account({ w8ben_info: { ...w8ben, tax_id: "T\u00001" } }) }),
      "tax_id",
    ],
    [
      "address",
      () =>
        f.api.op("createVirtualAccount", "resource", {
          body: account({ w8ben_info: { ...w8ben, home_address: { ...w8ben.home_address, city: "H\u0000K" } } }),
        }),
      "city",
    ],
    [
      "commission code",
      () => f.api.op("createVirtualAccount", "resource", { body: account({ commission_code: "C\u00001" }) }),
      "commission_code",
    ],
  ])("a NUL byte in %s is a 417 naming the field", async (_name, call, field) => {
    const r = shape(await call());
    expect(r).toMatchObject({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(r.message).toContain(field);
  });

  it("an unsigned 10 MB body is refused at its headers (401), a signed one for its size (413); a 10 MB name is never stored", async () => {
    const big = "x".repeat(10 * 1024 * 1024);
    const unsigned = await fetch(new URL("/broker/journals/cash-journals/create", f.sb.url), {
      method: "POST",
      body: big,
      headers: { "content-type": "application/json" },
    });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error_code: expect.any(String) });
    const signed = await f.api.op("createCashJournal", "resource", { rawBody: JSON.stringify({ amount: big }) });
    expect(shape(signed)).toMatchObject({ status: 413, code: "REQUEST_TOO_LARGE" });
    const name = await f.api.op("createVirtualAccount", "resource", {
      body: account({ w8ben_info: { ...w8ben, first_name: "x".repeat(MAX_BODY_BYTES / 2) } }),
    });
    expect(shape(name)).toMatchObject({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(shape(name).message).toContain("first_name");
  });
});

describe("wrong-typed values are refused, not defaulted", () => {
  it.each(["combo_type", "entrust_type", "support_trading_session"])(
    "%s as an object, array, boolean, number or empty string is a 417 naming it",
    async (field) => {
      for (const bad of [{}, [], true, 1, ""]) {
        const o = stock({ [field]: bad });
        const r = shape(await place(f.api, ACCOUNTS.margin, [o]));
        expect(r, `${field} = ${JSON.stringify(bad)}`).toMatchObject({ status: 417 });
        expect(r.message).toContain(field);
        const stored = await f.sb.engine.query("SELECT 1 FROM sandbox.orders WHERE client_order_id = $1", [o.client_order_id]);
        expect(stored.rows).toEqual([]);
      }
    },
  );

  it("replace refuses unknown trigger_price_type and trailing_type values", async () => {
    const o = stock({ limit_price: "1.00" });
    expect((await place(f.api, ACCOUNTS.margin, [o])).status).toBe(200);
    for (const [k, v] of [
      ["trigger_price_type", "SOMETIMES"],
      ["trailing_type", "BANANAS"],
    ]) {
      const r = shape(
        await f.api.op("replaceOrder", "resource", {
          body: { account_id: ACCOUNTS.margin, modify_orders: [{ combo_type: "NORMAL", client_order_id: o.client_order_id, [k]: v }] },
        }),
      );
      expect(r).toMatchObject({ status: 417, code: "ILLEGAL_PARAMETER" });
      expect(r.message).toContain(k);
    }
    const row = await f.sb.engine.query<{ trigger_price_type: string | null; trailing_type: string | null }>(
      "SELECT trigger_price_type, trailing_type FROM sandbox.orders WHERE client_order_id = $1",
      [o.client_order_id],
    );
    expect(row.rows[0]).toEqual({ trigger_price_type: null, trailing_type: null });
  });

  it("a US stock price finer than the tick is refused, on place and on replace", async () => {
    expect(shape(await place(f.api, ACCOUNTS.margin, [stock({ limit_price: "100.001" })]))).toMatchObject({
      status: 417,
      message: expect.stringContaining("limit_price"),
    });
    expect(shape(await place(f.api, ACCOUNTS.margin, [stock({ limit_price: "0.12345" })]))).toMatchObject({ status: 417 });
    expect((await place(f.api, ACCOUNTS.margin, [stock({ limit_price: "0.1234" })])).status).toBe(200);
    const o = stock({ limit_price: "1.00" });
    await place(f.api, ACCOUNTS.margin, [o]);
    const r = shape(
      await f.api.op("replaceOrder", "resource", {
        body: {
          account_id: ACCOUNTS.margin,
          modify_orders: [{ combo_type: "NORMAL", client_order_id: o.client_order_id, limit_price: "1.005" }],
        },
      }),
    );
    expect(r).toMatchObject({ status: 417, message: expect.stringContaining("limit_price") });
  });

  it("an empty tax_id is refused", async () => {
    const r = shape(await f.api.op("createVirtualAccount", "resource", { body: account({ w8ben_info: { ...w8ben, tax_id: "" } }) }));
    expect(r).toMatchObject({ status: 417 });
    expect(r.message).toContain("tax_id");
  });
});

describe("secrets and hosts", () => {
  it("the start-up banner shows the app secret masked", () => {
    const masked = maskSecret("brokerdesk-demo-secret");
    expect(masked).not.toContain("demo-secret");
    expect(masked).toMatch(/^bro…et/);
  });

  it("a signature over the host without the sandbox's own port is accepted (SDKs sign their endpoint without it)", async () => {
    const url = new URL(f.sb.url);
    const client = new SignedClient(f.sb.url);
    client.token = f.api.token;
    const r = await client.op("listVirtualAccounts", "resource", { query: { page_size: 1 }, signHost: url.hostname });
    expect(r.status).toBe(200);
    const other = await client.op("listVirtualAccounts", "resource", { query: { page_size: 1 }, signHost: `${url.hostname}:1` });
    expect(other.status).toBe(401);
    expect(signedHostCandidates("example.test:4100", 4100)).toEqual(["example.test:4100", "example.test"]);
    expect(signedHostCandidates("example.test:9999", 4100)).toEqual(["example.test:9999"]);
  });
});

describe("the sandbox process", () => {
  it("prints its app secret masked in the start-up banner", async () => {
    const { spawn } = await import("node:child_process");
    const os = await import("node:os");
    const path = await import("node:path");
    const fs = await import("node:fs");
    const { freePort } = await import("../../scripts/free-port");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-banner-"));
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "server/sandbox/main.ts"], {
      env: {
        ...process.env,
        BROKERDESK_DATA_DIR: dir,
        SANDBOX_PORT: String(await freePort()),
        SANDBOX_GRPC_PORT: String(await freePort()),
        SANDBOX_APP_SECRET: "a-very-private-sandbox-secret",
        LOG_LEVEL: "silent",
      },
      detached: true,
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    try {
      const end = Date.now() + 60_000;
      while (!out.includes("app secret") && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain("app secret:");
      expect(out).not.toContain("a-very-private-sandbox-secret");
    } finally {
      process.kill(-child.pid!, "SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
