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
