import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import pg from "pg";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "@/server/sandbox";
import { createServerDatabase } from "../helpers/engines";
import { SignedClient } from "../helpers/signed-fetch";
import { masterAccountId, rid, seedAccountId } from "./fixture";

/** Writes through the API, restarts the sandbox on the same storage, and reads everything back. */
async function roundTrip(engine: { dataDir?: string; url?: string }) {
  let sb = await startSandbox({ port: 0, engine });
  let api = new SignedClient(sb.url);
  await api.login();
  const account = await api.op("createVirtualAccount", "resource", {
    body: {
      client_request_id: rid("rs"),
      belong_account_id: masterAccountId(),
      external_account_number: "RST1",
      account_type: "MARGIN",
      trading_permissions: ["US_STOCK_NORMAL"],
    },
  });
  const id = account.body.account_id;
  const journal = await api.op("createCashJournal", "resource", {
    body: { from_account: seedAccountId(0), to_account: id, client_request_id: rid("rs"), amount: "321.00", currency: "USD" },
  });
  expect(journal.body.status).toBe("COMPLETED");
  const balance = (await api.op("getBalance", "resource", { query: { account_id: seedAccountId(0) } })).body;
  const token = api.token;
  await sb.close();

  sb = await startSandbox({ port: 0, engine });
  try {
    api = new SignedClient(sb.url);
    api.token = token; // tokens persist too
    expect((await api.op("getVirtualAccount", "legacy", { query: { account_id: id } })).body).toMatchObject({
      account_number: "VBDRST1",
      account_status: "ACTIVE",
    });
    expect(
      (
        await api.op("getCashJournal", "resource", {
          query: { account_id: seedAccountId(0), client_request_id: journal.body.client_request_id },
        })
      ).body,
    ).toEqual(journal.body);
    expect((await api.op("getBalance", "resource", { query: { account_id: seedAccountId(0) } })).body).toEqual(balance);
    expect((await api.op("getBalance", "resource", { query: { account_id: id } })).body.account_currency_assets[0].cash_balance).toBe(
      "321.00",
    );
    const count = (await sb.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM sandbox.virtual_accounts")).rows[0].n;
    expect(count).toBe(41); // the seed did not run twice
  } finally {
    await sb.close();
  }
}

describe("sandbox restart", () => {
  it("answers a call in flight when it closes, before its database closes", async () => {
    // An in-memory database the sandbox opens itself, so that its close closes it.
    const sb = await startSandbox({ port: 0, engine: { dataDir: "memory://" } });
    const api = new SignedClient(sb.url);
    await api.login();
    // The balance read waits 1.5 s before it reads the database; the close starts meanwhile.
    sb.sandbox.faults.add({ path_pattern: "*/balance*", type: "LATENCY", remaining: 1, latency_ms: 1_500, status: 0 });
    const inFlight = api.op("getBalance", "resource", { query: { account_id: seedAccountId(0) } });
    // In flight once the call has taken the fault.
    await expect.poll(() => sb.sandbox.faults.list().length, { interval: 10, timeout: 30_000 }).toBe(0);
    const closed = sb.close();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.account_currency_assets.length).toBeGreaterThan(0);
    await closed;
    // Closed: no new call is taken.
    await expect(fetch(`${sb.url}/`)).rejects.toThrow();
  });

  it("keeps accounts, journals, balances and tokens in a PGlite directory", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-restart-"));
    try {
      await roundTrip({ dataDir: path.join(dir, "db") });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("closes the database it opened when its port is taken", async () => {
    const db = await createServerDatabase(process.env.TEST_DATABASE_URL!);
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const port = (taken.address() as net.AddressInfo).port;
      await expect(startSandbox({ port, engine: { url: db.url } })).rejects.toThrow(/EADDRINUSE/);
      const open = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [
        new URL(db.url).pathname.slice(1),
      ]);
      expect(open.rows[0].n).toBe(0);
    } finally {
      await admin.end();
      taken.close();
      await db.drop();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("keeps them on the PostgreSQL server", async () => {
    const db = await createServerDatabase(process.env.TEST_DATABASE_URL!);
    try {
      await roundTrip({ url: db.url });
    } finally {
      await db.drop();
    }
  });
});
