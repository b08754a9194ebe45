import "server-only";
import { Writable } from "node:stream";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import { createLogger } from "@/server/log";
import { EVENT } from "@/server/sandbox/trading/events/grpc-server";
import { isEventMessage } from "@/server/wire/events/proto";
import { openSubscription } from "@/server/wire/events/subscribe";
import { signedHeaders } from "@/server/wire/signing";
import { KEY, SECRET, signedPost, type Caller, type Child, type client } from "./load";
import { sandboxBroker } from "../../tests/helpers/sandbox-broker";

const SUBSCRIBERS = 10;

/**
 * Events per second to 10 gRPC subscribers: `total` MASTER_DATA events published through the control API (1,000 a
 * call), timed from the first publish until every subscriber has received all of them.
 */
export async function eventsPerSecond(sb: Child, call: Caller, total: number): Promise<{ perSecond: number; written: number }> {
  const counts = new Array<number>(SUBSCRIBERS).fill(0);
  const subs = Array.from({ length: SUBSCRIBERS }, () =>
    openSubscription({ target: `127.0.0.1:${sb.grpcPort}`, appKey: KEY, appSecret: SECRET, payload: { event_types: ["MASTER_DATA"] } }),
  );
  try {
    await Promise.all(
      subs.map(
        (sub, s) =>
          new Promise<void>((resolve, reject) => {
            sub.call.on("data", (m) => {
              if (m.eventType === EVENT.SubscribeSuccess) resolve();
              if (isEventMessage(m.eventType)) counts[s] += 1;
            });
            sub.call.on("error", reject);
          }),
      ),
    );
    const started = performance.now();
    for (let i = 0; i < total; i += 1_000) {
      const events = Array.from({ length: Math.min(1_000, total - i) }, (_, k) => ({
        event_type: "MASTER_DATA",
        payload: { biz_type: "CALENDAR_UPDATE", n: i + k },
      }));
      await call("POST", "/sandbox/events/publish", {}, { events });
    }
    const written = total / ((performance.now() - started) / 1000);
    const deadline = Date.now() + 60_000;
    while (counts.some((c) => c < total) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    if (counts.some((c) => c < total)) throw new Error(`event delivery: ${counts.join(", ")} of ${total} after 60 s`);
    return { perSecond: total / ((performance.now() - started) / 1000), written };
  } finally {
    for (const s of subs) s.close();
  }
}

/**
 * The desk's added milliseconds on the accounts list: its server function `listAccountsPage` (the Broker client:
 * signing, rate budget, logging, zod parsing, row mapping), run in this process against the sandbox child, versus
 * a direct signed fetch of the same upstream page. Sequential, the two alternated call by call, p50.
 */
export async function deskAddedMs(url: string): Promise<{ desk: number; direct: number }> {
  const unlimited = { limit: 1_000_000, windowMs: 1_000 };
  const broker = sandboxBroker(
    url,
    { rateLimits: { account: unlimited, token: unlimited } },
    { logger: createLogger({ name: "broker", destination: new Writable({ write: (_c, _e, cb) => cb() }), level: "info" }) },
  );
  const params = parseAccountListParams(new URLSearchParams(""));
  const desk = () => listAccountsPage(params, broker);
  await desk(); // the client's token
  const token = await tokenOf(url);
  const host = new URL(url).host;
  const p = "/broker/accounts/virtual-accounts/list";
  const query = { page_size: String(params.size) };
  const direct = async () => {
    const headers = signedHeaders({ appKey: KEY, appSecret: SECRET, algorithm: "HMAC-SHA256", path: p, query, host });
    const res = await fetch(`${url}${p}?page_size=${params.size}`, { headers: { ...headers, "x-version": "v3", "x-access-token": token } });
    await res.json();
    if (!res.ok) throw new Error(`direct list: ${res.status}`);
  };
  // Alternated call by call (after 20 rounds of warm-up), so that load drifting during the run weighs on both alike.
  const d: number[] = [];
  const r: number[] = [];
  for (let round = -20; round < 200; round++) {
    for (const [f, into] of [
      [desk, d],
      [direct, r],
    ] as const) {
      const t = performance.now();
      await f();
      if (round >= 0) into.push(performance.now() - t);
    }
  }
  const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { desk: p50(d), direct: p50(r) };
}

async function tokenOf(url: string): Promise<string> {
  const res = await signedPost(url, "/openapi/auth/token/create", {});
  return ((await res.json()) as { token: string }).token;
}

/**
 * The first page (25 rows) and a name search (the fill's few "Núñez", found as "nunez") on two sandboxes, one holding
 * 100 accounts and one 10,000: 200 rounds of one call of each kind on each, alternated call by call (after 20 rounds
 * of warm-up), p50 ms of each.
 */
export async function listTimes(small: ReturnType<typeof client>, large: ReturnType<typeof client>) {
  const p = "/broker/accounts/virtual-accounts/list";
  for (const c of [small, large]) {
    const { token } = (await c.call("POST", "/openapi/auth/token/create", {}, {})) as { token: string };
    c.setToken(token);
  }
  const kinds = { list: { page_size: "25" }, name: { page_size: "25", name: "nunez" } };
  const times = { small: { list: [] as number[], name: [] as number[] }, large: { list: [] as number[], name: [] as number[] } };
  for (let round = -20; round < 200; round++) {
    for (const kind of ["list", "name"] as const) {
      for (const [side, c] of [
        ["small", small],
        ["large", large],
      ] as const) {
        const t = performance.now();
        await c.call("GET", p, kinds[kind]);
        if (round >= 0) times[side][kind].push(performance.now() - t);
      }
    }
  }
  const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    small: { list: p50(times.small.list), name: p50(times.small.name) },
    large: { list: p50(times.large.list), name: p50(times.large.name) },
  };
}
