import { afterEach, describe, expect, it } from "vitest";
import { MemoryTokenStore } from "@/server/broker/token-store";
import { createLogger } from "@/server/log";
import { APP_SECRET, startFakeUpstream, testClient } from "./helpers/fake-upstream";

let upstream: Awaited<ReturnType<typeof startFakeUpstream>> | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const TOKEN = "tok-SECRET-9d1c2e3f4a5b6c7d8e9f";
const w8 = {
  treaty_country: "GB",
  tax_id: "TAXID-778899",
  sign_date: "2026-01-02",
  first_name: "Wilhelmina",
  last_name: "Zebulonsdottir",
  middle_name: "Q",
  home_address: { country: "GB", city: "Leamington", street_address: "17 Quillfeather Lane" },
  mail_address: { country: "GB", city: "Leamington", street_address: "17 Quillfeather Lane" },
};

describe("log redaction", () => {
  it("logs operation, method, path, status, duration and request id; never the secret, token, signature or W-8BEN data", async () => {
    const signatures: string[] = [];
    upstream = await startFakeUpstream((req) => {
      signatures.push(String(req.headers["x-signature"]));
      if (req.path === "/openapi/config") return { json: { token_check_enabled: true } };
      if (req.path.includes("/token/")) return { json: { token: TOKEN, expires: Date.now() + 15 * 86_400_000, status: "NORMAL" } };
      if (req.path.endsWith("/virtual-accounts/create"))
        return { json: { client_request_id: "r1", account_id: "VA1", account_number: "V1", account_status: "CREATED" } };
      // an error whose message echoes personal data must not leak either
      return { status: 417, json: { error_code: "ILLEGAL_PARAMETER", message: `tax_id ${w8.tax_id} for ${w8.last_name} is invalid` } };
    });
    const { client, lines, logs } = testClient(upstream.url, { kind: "sandbox" }, { tokenStore: new MemoryTokenStore() });
    await client.createVirtualAccount({
      client_request_id: "r1",
      belong_account_id: "M1",
      external_account_number: "1001",
      account_type: "CASH",
      trading_permissions: ["US_STOCK_NORMAL"],
      w8ben_info: w8,
    });
    await client.updateVirtualAccount({ client_request_id: "r2", account_id: "VA1", w8ben_info: w8 }).catch(() => undefined);

    const text = lines.join("");
    const call = logs().find((l) => l.operation === "createVirtualAccount")!;
    expect(call).toMatchObject({
      method: "POST",
      path: "/broker/accounts/virtual-accounts/create",
      status: 200,
      requestId: expect.any(String),
    });
    expect(typeof call.durationMs).toBe("number");
    expect(logs().find((l) => l.operation === "updateVirtualAccount")).toMatchObject({ status: 417, errorCode: "ILLEGAL_PARAMETER" });
    expect(upstream.seen.some((s) => s.headers["x-access-token"] === TOKEN)).toBe(true); // the token was really in play
    for (const secret of [APP_SECRET, TOKEN, ...signatures, w8.tax_id, w8.first_name, w8.last_name, w8.home_address.street_address]) {
      expect(text).not.toContain(secret);
    }
  });

  it("the redact list catches a token or W-8BEN object logged by mistake", async () => {
    upstream = await startFakeUpstream(() => ({ json: {} }));
    const { client, lines } = testClient(upstream.url);
    client.transport.logger.info(
      { token: TOKEN, appSecret: APP_SECRET, req: { w8ben_info: w8, headers: { "x-signature": "sig-VALUE-123" } } },
      "oops",
    );
    const text = lines.join("");
    for (const secret of [TOKEN, APP_SECRET, w8.tax_id, "sig-VALUE-123"]) expect(text).not.toContain(secret);
  });

  it("the app's logger and the broker's redact one list (a password, a token, a signature, W-8BEN data)", () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    const app = createLogger({ level: "info", destination });
    const brokerLog = createLogger({ name: "broker", level: "info", destination });
    for (const log of [app, brokerLog]) {
      log.info(
        {
          password: "pw-SECRET-1",
          accessToken: TOKEN,
          input: { password: "pw-SECRET-2", w8ben_info: w8 },
          req: { headers: { "x-signature": "sig-VALUE-9" } },
        },
        "oops",
      );
    }
    const text = lines.join("");
    expect(lines).toHaveLength(2);
    for (const secret of ["pw-SECRET-1", "pw-SECRET-2", TOKEN, "sig-VALUE-9", w8.tax_id, w8.last_name]) expect(text).not.toContain(secret);
  });
});
