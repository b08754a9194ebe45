// Test-only: one signed call to the e2e sandbox (or a batch of them), run as a Node bundle that e2e/accounts-helpers.ts
// builds with the react-server condition (the signing module is server-only, which Playwright's loader cannot import).
// Prints {status, body} as JSON.
import fs from "node:fs";
import nodePath from "node:path";
import { signedHeaders } from "@/server/wire/signing";

// In the e2e run's data directory, which scripts/e2e.mjs clears with the sandbox's database at the start of a run.
const TOKENS = nodePath.join(process.env.E2E_DATA_DIR ?? ".data/e2e", "helper-tokens.json");
const readTokens = (): Record<string, string> => {
  try {
    return JSON.parse(fs.readFileSync(TOKENS, "utf8"));
  } catch {
    return {};
  }
};
function writeToken(appKey: string, token: string) {
  fs.mkdirSync(nodePath.dirname(TOKENS), { recursive: true });
  const tmp = `${TOKENS}.${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify({ ...readTokens(), [appKey]: token }));
  fs.renameSync(tmp, TOKENS);
}

async function main() {
  const [method, path, json] = process.argv.slice(2) as ["GET" | "POST" | "BATCH", string, string | undefined];
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

  const one = async (method: "GET" | "POST", path: string, input: { query?: Record<string, string>; body?: unknown }) => {
    const body = method === "POST" ? JSON.stringify(input.body ?? {}) : undefined;
    if (path.startsWith("/sandbox/")) return call(method, path, input.query ?? {}, body);
    // A token as a real client keeps one: made once per app key and run (the sandbox, like the upstream, allows 10
    // token calls in 30 s per app key, shared with the desk's own token manager), made again only when refused.
    const cached = readTokens()[appKey];
    let result = cached ? await call(method, path, input.query ?? {}, body, cached) : { status: 401, body: null };
    if (result.status === 401) {
      const made = await call("POST", "/openapi/auth/token/create", {}, "{}");
      if (made.status !== 200) throw new Error(`token create answered ${made.status}: ${JSON.stringify(made.body)}`);
      writeToken(appKey, made.body.token);
      result = await call(method, path, input.query ?? {}, body, made.body.token);
    }
    return result;
  };

  // BATCH: many calls (read from stdin) in one process, one after another (a spec's data in one go); prints their
  // answers in order.
  if (method === "BATCH") {
    const calls = JSON.parse(fs.readFileSync(0, "utf8")) as {
      method: "GET" | "POST";
      path: string;
      query?: Record<string, string>;
      body?: unknown;
    }[];
    const results = [];
    for (const c of calls) results.push(await one(c.method, c.path, c));
    process.stdout.write(JSON.stringify({ status: 200, body: results, at: Date.now() }));
    return;
  }
  const input = json ? (JSON.parse(json) as { query?: Record<string, string>; body?: unknown }) : {};
  const result = await one(method, path, input);
  // `at`: when the answer arrived, so a spec can time what follows from the call itself, not from this process's start.
  process.stdout.write(JSON.stringify({ ...result, at: Date.now() }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
