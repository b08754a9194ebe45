import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import { forgetAccountReads, SHARE_MS, shareAccountReads, sharedRead } from "@/server/accounts/shared-reads";
import type { BrokerClient } from "@/server/broker/client";
import { openEngine, type Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { onChange, type ChangeNotice } from "@/server/notices/listen";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { until } from "../helpers/until";

/**
 * Staff reading the same accounts at once share one upstream call (server/accounts/shared-reads.ts): in flight or
 * asked for within SHARE_MS; an account change notice (from any instance) or this process's write drops them all.
 */
let engine: Engine;
let sb: RunningSandbox;
let client: BrokerClient;
const heard: ChangeNotice[] = [];

/** A read that counts its calls and answers the count. */
function counter() {
  const c = { calls: 0, read: async () => ++c.calls };
  return c;
}

/** Sends a notice and waits until this process heard it (the sharing's listener, registered first, has run by then). */
async function notice(topics: string[]) {
  const before = heard.length;
  await notifyChange(engine, { topics, accounts: ["acc-1"] });
  await until(() => heard.length > before, 10_000, "the notice");
}

beforeAll(async () => {
  engine = await openEngine({});
  sb = await startSandbox({ port: 0, tokenRateLimit: 1000 });
  client = sandboxBroker(sb.url);
  await shareAccountReads(engine);
  await onChange(engine, (n) => heard.push(n));
}, 120_000);
afterAll(async () => {
  await sb?.close();
  await engine?.close();
});

describe("shared account reads", () => {
  it("before the notices are heard (a process not yet told of them), every read goes upstream", async () => {
    const holder = globalThis as { __brokerdeskAccountReads?: unknown };
    const kept = holder.__brokerdeskAccountReads;
    delete holder.__brokerdeskAccountReads;
    try {
      const c = counter();
      await Promise.all([sharedRead(client, "k", c.read), sharedRead(client, "k", c.read)]);
      expect(c.calls).toBe(2);
    } finally {
      holder.__brokerdeskAccountReads = kept;
    }
  });

  it("once heard: one call for reads at once and within the window; each key and each client its own", async () => {
    const c = counter();
    const [a, b] = await Promise.all([sharedRead(client, "k1", c.read), sharedRead(client, "k1", c.read)]);
    expect([a, b, c.calls]).toEqual([1, 1, 1]);
    expect(await sharedRead(client, "k1", c.read)).toBe(1);
    expect(await sharedRead(client, "k2", c.read)).toBe(2);
    expect(await sharedRead({}, "k1", c.read)).toBe(3);
    // Past the window: upstream again.
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + SHARE_MS);
    try {
      expect(await sharedRead(client, "k1", c.read)).toBe(4);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("an account change notice drops the shared reads; a notice of other topics does not", async () => {
    const c = counter();
    expect(await sharedRead(client, "n", c.read)).toBe(1);
    await notice(["order", "movement"]);
    expect(await sharedRead(client, "n", c.read)).toBe(1);
    await notice(["account"]);
    expect(await sharedRead(client, "n", c.read)).toBe(2);
    forgetAccountReads();
    expect(await sharedRead(client, "n", c.read)).toBe(3);
  });

  it("a failed read is not shared once it failed", async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error("upstream down");
    };
    await expect(Promise.all([sharedRead(client, "f", failing), sharedRead(client, "f", failing)])).rejects.toThrow("upstream down");
    expect(calls).toBe(1);
    await expect(sharedRead(client, "f", failing)).rejects.toThrow("upstream down");
    expect(calls).toBe(2);
  });

  it("the accounts list against the sandbox: staff asking at once cost one upstream call, a new filter its own", async () => {
    forgetAccountReads();
    let upstream = 0;
    const counted: BrokerClient = {
      ...client,
      listVirtualAccounts: (input, ro) => {
        upstream++;
        return client.listVirtualAccounts(input, ro);
      },
    };
    const first = accountListParams.parse({ size: "10" });
    const pages = await Promise.all(Array.from({ length: 20 }, () => listAccountsPage(first, counted)));
    expect(upstream).toBe(1);
    expect(pages[0].rows.length).toBeGreaterThan(0);
    expect(pages.every((p) => JSON.stringify(p) === JSON.stringify(pages[0]))).toBe(true);
    await listAccountsPage(accountListParams.parse({ size: "10", status: "ACTIVE" }), counted);
    expect(upstream).toBe(2);
    await notice(["account"]);
    await listAccountsPage(first, counted);
    expect(upstream).toBe(3);
  });
});
