import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { issueTradingCredentialAction, revokeTradingCredentialAction } from "@/server/actions/accounts";
import { listAudit } from "@/server/audit/list";
import { createSandboxControl, setSandboxControlForTests, type SandboxControl } from "@/server/sandbox-control";
import { withAppDb } from "../helpers/app-db";
import { engines, startFixture, type Fixture } from "../sandbox/fixture";
import { TradingSdkClient } from "../sandbox/trading-api-client";
import { ACCOUNTS } from "../sandbox/trading-helpers";

/**
 * The desk side of Trading API credentials: an operations user issues (the secret comes back once, and is in no
 * audit entry) and revokes them for a virtual account; other roles are refused; the holder's app works, then not.
 */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({ clientIp: "10.0.0.8", userAgent: "vitest" }) }));

const OPS = { id: "00000000-0000-4000-8000-000000000001", email: "ops@example.test", name: "Ops", role: "operations" };
const SUPPORT = { id: "00000000-0000-4000-8000-000000000002", email: "support@example.test", name: "Support", role: "support" };
const account = ACCOUNTS.margin;
const db = withAppDb();

describe("Trading API credentials from the desk", () => {
  let f: Fixture;
  let control: SandboxControl;
  beforeAll(async () => {
    f = await startFixture(engines[0]);
    control = createSandboxControl({
      baseUrl: f.sb.url,
      appKey: "brokerdesk-demo-key",
      appSecret: "brokerdesk-demo-secret",
      algorithm: "HMAC-SHA256",
      timeoutMs: 5000,
    });
    setSandboxControlForTests(control);
  }, 60_000);
  afterAll(async () => {
    setSandboxControlForTests(undefined);
    await f?.close();
  });
  beforeEach(() => {
    session.staff = OPS;
  });

  it("issues once-shown credentials that the holder's app signs with; audited without the secret; revokes them", async () => {
    const issued = await issueTradingCredentialAction({ account_id: account });
    expect(issued.ok).toBe(true);
    if (!issued.ok) return;
    expect(issued.data).toMatchObject({
      app_key: expect.any(String),
      app_secret: expect.any(String),
      account_id: account,
      status: "ACTIVE",
    });

    const app = new TradingSdkClient(f.sb.url, issued.data.app_key, issued.data.app_secret);
    await app.login();
    expect((await app.get_account_list()).body).toEqual([expect.objectContaining({ account_id: account })]);

    const listed = await control.listTradingCredentials(account);
    expect(listed.map((c) => c.app_key)).toContain(issued.data.app_key);
    expect(JSON.stringify(listed)).not.toContain(issued.data.app_secret);
    const [entry] = (await listAudit(db().engine, { action: "accounts.trading_credentials.issue" })).rows;
    expect(entry).toMatchObject({ outcome: "success", target: `account:${account}`, actorEmail: OPS.email });
    expect(JSON.stringify(entry)).not.toContain(issued.data.app_secret);

    // A key is revoked only through its own account.
    const wrongAccount = await revokeTradingCredentialAction({ account_id: ACCOUNTS.cash, app_key: issued.data.app_key });
    expect(wrongAccount).toMatchObject({ ok: false, code: "NOT_FOUND" });
    const revoked = await revokeTradingCredentialAction({ account_id: account, app_key: issued.data.app_key });
    expect(revoked).toMatchObject({ ok: true, data: { app_key: issued.data.app_key, status: "REVOKED" } });
    expect((await app.get_account_list()).status).toBe(401);
    expect((await listAudit(db().engine, { action: "accounts.trading_credentials.revoke" })).rows.map((e) => e.outcome)).toEqual([
      "success",
      "failure",
    ]);
  });

  it("needs accounts:write", async () => {
    session.staff = SUPPORT;
    expect(await issueTradingCredentialAction({ account_id: account })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await revokeTradingCredentialAction({ account_id: account, app_key: "ta-x" })).toMatchObject({ ok: false, code: "FORBIDDEN" });
  });
});
