import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { expect, test, type Page } from "./fixtures";

let helper: string | undefined;
/**
 * The call helper (accounts-sandbox-cli.ts, with the server's signing module) bundled into plain JavaScript once per
 * test process, in the run's data directory: a Node child of it costs about a tenth of the CPU of one under tsx,
 * which compiled the helper again for every call.
 */
function callHelper(): string {
  if (!helper) {
    const out = path.join(process.cwd(), process.env.E2E_DATA_DIR ?? ".data/e2e", `sandbox-cli-${process.pid}.mjs`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    buildSync({
      entryPoints: ["e2e/accounts-sandbox-cli.ts"],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      conditions: ["react-server"], // server-only's empty module, as under Next and tsx
      logLevel: "error",
    });
    helper = out;
  }
  return helper;
}

/** A signed call to the e2e sandbox (control API or Broker API), through a Node child process. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary upstream JSON, read ad hoc by the specs
export function sandboxCall<T = any>(
  method: "GET" | "POST",
  apiPath: string,
  input: { query?: Record<string, string>; body?: unknown } = {},
  /** Sign as another app (an account holder's Trading API credentials) instead of the broker's. */
  as?: { appKey: string; appSecret: string },
): { status: number; body: T; at: number } {
  const root = process.cwd(); // playwright runs from the project root
  const out = execFileSync(process.execPath, [callHelper(), method, apiPath, JSON.stringify(input)], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      E2E_SANDBOX_PORT: process.env.E2E_SANDBOX_PORT ?? "4210",
      ...(as ? { SANDBOX_APP_KEY: as.appKey, SANDBOX_APP_SECRET: as.appSecret } : {}),
    },
  });
  return JSON.parse(out);
}

/** Many signed calls to the e2e sandbox in one child process, one after another; their answers in order. */
export function sandboxCalls(
  calls: { method: "GET" | "POST"; path: string; query?: Record<string, string>; body?: unknown }[],
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary upstream JSON, read ad hoc by the specs
): { status: number; body: any }[] {
  const root = process.cwd();
  const out = execFileSync(process.execPath, [callHelper(), "BATCH", "-"], {
    cwd: root,
    encoding: "utf8",
    input: JSON.stringify(calls),
    env: { ...process.env, E2E_SANDBOX_PORT: process.env.E2E_SANDBOX_PORT ?? "4210" },
  });
  return JSON.parse(out).body;
}

/**
 * Pauses the sandbox's market timer for the enclosing spec or group (before its first test; resumed after its last):
 * prices stay where a test pins them, and a ranking read twice is the same.
 */
export function pauseMarketTimer() {
  test.beforeAll(() => {
    expect(sandboxCall("POST", "/sandbox/market/pause", { body: { paused: true } }).status).toBe(200);
  });
  test.afterAll(() => {
    sandboxCall("POST", "/sandbox/market/pause", { body: { paused: false } });
  });
}

const accountIds = new Map<string, string>();
/** A seeded account's id by its number (VBD + external number 1000001 + index), read from the sandbox once. */
export function sandboxAccountId(number: string): string {
  if (!accountIds.has(number)) {
    const res = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { account_number: number, page_size: "5" } });
    expect(res.status).toBe(200);
    accountIds.set(number, res.body.data[0].account_id);
  }
  return accountIds.get(number)!;
}

/** Virtual accounts the sandbox holds with this external number (read straight from the upstream, not the app). */
export function sandboxAccountsByExternal(external: string): { account_id: string; option_level?: string }[] {
  const res = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", {
    query: { external_account_number: external, page_size: "10" },
  });
  expect(res.status).toBe(200);
  return res.body.data ?? [];
}

/** A fresh external account number (≤10 characters, unique per run). */
export const freshExternal = (prefix = "E") => `${prefix}${Date.now().toString().slice(-8)}${Math.floor(Math.random() * 10)}`.slice(0, 10);

/** Fills the open-account form with a valid W-8BEN (home address used for mail). */
export async function fillNewAccount(page: Page, external: string, opts: { lastName?: string; options?: boolean } = {}) {
  await page.getByLabel("External account number").fill(external);
  if (opts.options) await page.getByLabel(/US options/).check();
  await page.getByLabel("First name", { exact: true }).fill("Ada");
  await page.getByLabel("Last name", { exact: true }).fill(opts.lastName ?? "Lovelace");
  await page.getByLabel("Treaty country").fill("GB");
  await page.getByLabel("Tax id").fill("GB123456789");
  await page.getByLabel("Home address: street").fill("12 St James's Square");
  await page.getByLabel("Home address: city").fill("London");
  await page.getByLabel("Home address: postal code").fill("SW1Y 4JH");
  await page.getByLabel("Home address: country").fill("GB");
}
