import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrokerClient } from "@/server/broker/client";
import { accountFieldMap } from "@/server/accounts/upstream-errors";
import type { AppError } from "@/lib/errors";
import { toActionError } from "@/server/action-kit/upstream-error";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { masterAccountId } from "@/server/sandbox/seed";
import { toUpstreamFields } from "@/lib/schemas/virtual-account";
import { blankValues } from "./fixtures";
import { sandboxBroker } from "../helpers/sandbox-broker";

/**
 * The create path against the real sandbox (in-memory PGlite, seeded): upstream rule violations come back as
 * field errors on the right inputs, and the same client_request_id + body is one account.
 */
let sb: RunningSandbox;
let client: BrokerClient;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, tokenRateLimit: 1000 });
  client = sandboxBroker(sb.url);
}, 120_000);
afterAll(() => sb?.close());

const body = (external: string, crid: string, overrides: Parameters<typeof blankValues>[0] = {}) => {
  const v = blankValues({ external_account_number: external, client_request_id: crid, ...overrides });
  return {
    client_request_id: crid,
    belong_account_id: masterAccountId(),
    external_account_number: external,
    account_type: v.account_type,
    ...toUpstreamFields(v),
  };
};

async function fieldErrorsOf(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    return (toActionError(error, { fields: accountFieldMap(), idempotent: true }) as AppError).fieldErrors;
  }
  throw new Error("expected the upstream to refuse");
}

describe("create virtual account against the sandbox", () => {
  it("an option level above the master's (LV4 > LV3) is an option_level field error", async () => {
    const errors = await fieldErrorsOf(() =>
      client.createVirtualAccount(
        body("T1", "va_t1", { trading_permissions: ["US_STOCK_NORMAL", "US_OPTION_NORMAL"], option_level: "LV4" }),
      ),
    );
    expect(errors).toEqual({ option_level: expect.stringContaining("exceeds the master account's level LV3") });
  });

  it("a duplicate external number is an external_account_number field error", async () => {
    const errors = await fieldErrorsOf(() => client.createVirtualAccount(body("1000001", "va_t2")));
    expect(errors).toEqual({ external_account_number: "This external account number is already used" });
  });

  it("a missing W-8BEN member is a field error on that member (the client refuses to send it)", async () => {
    const b = body("T3", "va_t3");
    const { last_name: _drop, ...w8 } = b.w8ben_info;
    const errors = await fieldErrorsOf(() => client.createVirtualAccount({ ...b, w8ben_info: w8 as typeof b.w8ben_info }));
    expect(errors).toHaveProperty(["w8ben_info.last_name"]);
  });

  it("the same client_request_id and body twice is one account", async () => {
    const b = body("T4", "va_t4");
    const [one, two] = await Promise.all([client.createVirtualAccount(b), client.createVirtualAccount(b)]);
    expect(two.account_id).toBe(one.account_id);
    const { items } = await client.listVirtualAccounts({ external_account_number: "T4" });
    expect(items.map((a) => a.account_id)).toEqual([one.account_id]);
    expect(items[0].account_number).toBe("VBDT4");
  });
});
