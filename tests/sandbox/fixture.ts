import { expect } from "vitest";
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from "@/server/sandbox";
import { masterAccountId } from "@/server/sandbox/seed";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import { testEngines, type TestEngine } from "../helpers/engines";
import { SignedClient } from "../helpers/signed-fetch";

export { masterAccountId, seedAccountId };
export const engines = testEngines();

export interface Fixture {
  sb: RunningSandbox;
  /** HMAC-SHA256 client, logged in. */
  api: SignedClient;
  /** HMAC-SHA1 client, logged in. */
  sha1: SignedClient;
  close(): Promise<void>;
}

/** Starts a seeded sandbox on a fresh database of this engine, with two logged-in clients (one per algorithm). */
export async function startFixture(te: TestEngine, opts: StartSandboxOptions = {}): Promise<Fixture> {
  const db = await te.open();
  const sb = await startSandbox({ port: 0, engine: db.engine, tokenRateLimit: 1000, ...opts });
  const api = new SignedClient(sb.url, undefined, undefined, "HMAC-SHA256");
  const sha1 = new SignedClient(sb.url, undefined, undefined, "HMAC-SHA1");
  if (opts.tokenCheck !== false && opts.autoConfirm2fa !== false) {
    await api.login();
    sha1.token = api.token;
  }
  return {
    sb,
    api,
    sha1,
    close: async () => {
      await sb.close();
      await db.close();
    },
  };
}

let n = 0;
/** A client_request_id unique within the test run. */
export const rid = (prefix = "t") => `${prefix}-${process.pid}-${Date.now().toString(36)}-${(n += 1)}`;

const address = { country: "HK", state: "", city: "Hong Kong", street_address: "1 Queen's Road", postal_code: "000000" };
/** A complete W-8BEN as a create-account request carries it. */
export const w8ben = {
  treaty_country: "HK",
  tax_id: "T1",
  sign_date: "2026-01-02",
  first_name: "Ada",
  last_name: "Quantum",
  middle_name: "",
  home_address: address,
  mail_address: address,
};

let ext = Math.floor(Math.random() * 1e6);
/** A valid create-virtual-account request under the seed's master account; a test overrides what it is about. */
export const newAccount = (over: Record<string, unknown> = {}) => ({
  client_request_id: rid("acc"),
  belong_account_id: masterAccountId(),
  external_account_number: `T${(ext += 1)}`,
  account_type: "MARGIN",
  trading_permissions: ["US_STOCK_NORMAL"],
  w8ben_info: w8ben,
  ...over,
});

/** One account activity as the sandbox lists it. */
export type Activity = {
  id: string;
  activity_type: string;
  activity_sub_type: string;
  net_amount: string;
  biz_time: string;
  trade_date: string;
  currency: string;
  symbol?: string;
  quantity?: string;
  description?: string;
  account_number?: string;
};

/** Every activity of `account` under `query`, read page by page (`pageSize` a page unless `query` says otherwise). */
export async function allActivities(
  api: SignedClient,
  account: string,
  pageSize: number,
  query: Record<string, string | number> = {},
): Promise<Activity[]> {
  const out: Activity[] = [];
  let key: string | undefined;
  do {
    const r = await api.op("listAccountActivities", "resource", {
      query: { account_id: account, page_size: pageSize, ...query, ...(key ? { pagination_key: key } : {}) },
    });
    expect(r.status).toBe(200);
    out.push(...r.body.data);
    key = r.body.pagination_key;
  } while (key);
  return out;
}
