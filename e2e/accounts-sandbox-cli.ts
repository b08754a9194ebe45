// Test-only: one signed call to the e2e sandbox, run under tsx with the react-server condition (the signing
// module is server-only, which Playwright's loader cannot import). Prints {status, body} as JSON.
import { signedHeaders } from "@/server/wire/signing";

async function main() {
  const [method, path, json] = process.argv.slice(2) as ["GET" | "POST", string, string | undefined];
  const base = process.env.SANDBOX_URL ?? `http://127.0.0.1:${process.env.E2E_SANDBOX_PORT ?? 4210}`;
  const appKey = process.env.SANDBOX_APP_KEY ?? "brokerdesk-demo-key";
  const appSecret = process.env.SANDBOX_APP_SECRET ?? "brokerdesk-demo-secret";
  const host = new URL(base).host;

  const call = async (m: string, p: string, query: Record<string, string>, body?: string, token?: string) => {
    const headers: Record<string, string> = {
      ...signedHeaders({ appKey, appSecret, algorithm: "HMAC-SHA256", path: p, query, host, body }),
      "x-version": "v3",
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers["x-access-token"] = token;
    const url = new URL(p, base);
    for (const [k, v] of Object.entries(query)) url.searchParams.append(k, v);
    const res = await fetch(url, { method: m, headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  const input = json ? (JSON.parse(json) as { query?: Record<string, string>; body?: unknown }) : {};
  let token: string | undefined;
  if (!path.startsWith("/sandbox/")) {
    // The sandbox hands back the app key's current token (it does not replace the app's own).
    token = (await call("POST", "/openapi/auth/token/create", {}, "{}")).body?.token;
  }
  const body = method === "POST" ? JSON.stringify(input.body ?? {}) : undefined;
  const result = await call(method, path, input.query ?? {}, body, token);
  // `at`: when the answer arrived, so a spec can time what follows from the call itself, not from this process's start.
  process.stdout.write(JSON.stringify({ ...result, at: Date.now() }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
