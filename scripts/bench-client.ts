/**
 * npm run bench:client — signing throughput for both algorithms, and the Broker client's own overhead per call
 * (signing, validation, budget, logging, parsing) against a loopback node:http server, compared with a bare fetch
 * to the same server. Bounded (fixed iteration counts) and loopback only.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createBrokerClient } from "@/server/broker/client";
import { createLogger } from "@/server/log";
import { signedHeaders, type SignatureAlgorithm } from "@/server/wire/signing";
import { usStockOrder } from "../tests/helpers/orders";

const SIGN_ITERATIONS = 50_000;
const CALLS = 2_000;
const WARMUP = 200;

const body = JSON.stringify({
  account_id: "943a9802f6c14983b3b4755c69c01717",
  new_orders: [
    usStockOrder({
      client_order_id: "ord_m3k2q9x1a7Fq0ZrP2bLk9cXw",
      quantity: "10",
      limit_price: "187.25",
      support_trading_session: undefined,
    }),
  ],
});

function benchSigning(algorithm: SignatureAlgorithm): number {
  const sign = () =>
    signedHeaders({
      appKey: "776da210ab4a452795d74e726ebd74b6",
      appSecret: "0f50a2e853334a9aae1a783bee120c1f",
      algorithm,
      path: "/broker/orders/place",
      query: {},
      host: "127.0.0.1:4100",
      body,
    });
  for (let i = 0; i < 2_000; i++) sign(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < SIGN_ITERATIONS; i++) sign();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return SIGN_ITERATIONS / seconds;
}

const balance = JSON.stringify({
  account_id: "VA1",
  total_asset_currency: "USD",
  total_cash_balance: "1000.00",
  total_market_value: "0.00",
  account_currency_assets: [{ currency: "USD", cash_balance: "1000.00", buying_power: "1000.00" }],
});

async function main() {
  for (const alg of ["HMAC-SHA1", "HMAC-SHA256"] as const) {
    console.log(
      `signing ${alg.padEnd(11)} ${Math.round(benchSigning(alg)).toLocaleString("en-US")} signatures/s (${SIGN_ITERATIONS} iterations, ${body.length}-byte place-order body)`,
    );
  }

  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const json = req.url?.startsWith("/openapi/config") ? '{"token_check_enabled":false}' : balance;
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "bench" });
      res.end(json);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sink = new Writable({ write: (_c, _e, cb) => cb() }); // logs are produced and serialised, then dropped
  const unlimited = { limit: 1_000_000, windowMs: 1_000 };
  const client = createBrokerClient(
    {
      kind: "sandbox",
      baseUrl: url,
      appKey: "bench-key",
      appSecret: "bench-secret",
      algorithm: "HMAC-SHA256",
      pathStyle: "resource",
      timeoutMs: 5_000,
      maxRetries: 0,
      rateLimits: { assets: unlimited, token: unlimited },
    },
    { logger: createLogger({ name: "broker", destination: sink, level: "info" }) },
  );

  const time = async (n: number, fn: () => Promise<unknown>) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    return Number(process.hrtime.bigint() - start) / 1e3 / n; // µs per call
  };
  const bare = () => fetch(`${url}/broker/assets/balances/get?account_id=VA1`).then((r) => r.json());
  const viaClient = () => client.getBalance({ account_id: "VA1" });

  await time(WARMUP, bare);
  await time(WARMUP, viaClient);
  // interleave two rounds so neither side gets all the warm JIT / socket state
  const bareUs = ((await time(CALLS / 2, bare)) + (await time(CALLS / 2, bare))) / 2;
  const clientUs = ((await time(CALLS / 2, viaClient)) + (await time(CALLS / 2, viaClient))) / 2;
  server.close();
  server.closeAllConnections();

  console.log(`bare fetch        ${bareUs.toFixed(1)} µs/call (${CALLS} sequential GETs, loopback)`);
  console.log(`broker client     ${clientUs.toFixed(1)} µs/call (same server: sign, validate, budget, log, parse)`);
  console.log(`client overhead   ${(clientUs - bareUs).toFixed(1)} µs/call; ratio client/bare = ${(clientUs / bareUs).toFixed(2)}x`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
