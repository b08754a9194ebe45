import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createBrokerClient, type BrokerClientConfig, type BrokerClientDeps } from "@/server/broker/client";
import { createLogger } from "@/server/log";
import { sign, type SignatureAlgorithm } from "@/server/wire/signing";

/** A loopback node:http server standing in for the upstream: records every request, answers from a handler. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
  signatureValid: boolean;
}

export interface Reply {
  status?: number;
  json?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the client must time out). */
  hang?: boolean;
}

export type Handler = (req: SeenRequest, n: number) => Reply | Promise<Reply>;

export const APP_KEY = "test-app-key-123456";
export const APP_SECRET = "test-secret-DO-NOT-LOG-0f50a2e8";

export async function startFakeUpstream(handler: Handler) {
  const seen: SeenRequest[] = [];
  let counter = 0;
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://x");
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const k of ["x-app-key", "x-timestamp", "x-signature-version", "x-signature-algorithm", "x-signature-nonce"]) {
        headers[k] = String(req.headers[k] ?? "");
      }
      const query = Object.fromEntries(url.searchParams);
      const expected = headers["x-signature-algorithm"]
        ? sign({
            path: url.pathname,
            query,
            headers,
            host: String(req.headers.host),
            body: body === "" ? undefined : body,
            appSecret: APP_SECRET,
          })
        : "";
      const s: SeenRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query,
        headers: req.headers,
        body,
        signatureValid: expected !== "" && expected === req.headers["x-signature"],
      };
      seen.push(s);
      const reply = await handler(s, ++counter);
      if (reply.hang) return; // keep the socket open, say nothing
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", "x-request-id": `req-${counter}`, ...reply.headers });
      res.end(reply.json === undefined ? "" : JSON.stringify(reply.json));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A client aimed at `url` with fast retries, capturing its log lines. */
export function testClient(url: string, overrides: Partial<BrokerClientConfig> = {}, deps: BrokerClientDeps = {}) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger({ name: "broker", level: "debug", destination });
  const client = createBrokerClient(
    {
      kind: "external",
      baseUrl: url,
      appKey: APP_KEY,
      appSecret: APP_SECRET,
      algorithm: "HMAC-SHA256" as SignatureAlgorithm,
      pathStyle: "resource",
      timeoutMs: 2_000,
      maxRetries: 3,
      retry: { baseDelayMs: 10, maxDelayMs: 50 },
      rateLimits: {
        "order-query": { limit: 1000, windowMs: 1000 },
        assets: { limit: 1000, windowMs: 1000 },
        token: { limit: 1000, windowMs: 1000 },
      },
      ...overrides,
    },
    { logger, ...deps },
  );
  return { client, lines, logs: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** Default answers for the token endpoints: token checks disabled unless a test says otherwise. */
export function configReply(req: SeenRequest, tokenCheck = false): Reply | undefined {
  if (req.path === "/openapi/config") return { json: { token_check_enabled: tokenCheck } };
  return undefined;
}
