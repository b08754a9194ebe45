import "server-only";
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { authenticate } from "./auth";
import type { HonoEnv, Sandbox } from "./context";
import { ApiError } from "./errors";
import { accountRoutes } from "./routes/accounts";
import { activityRoutes } from "./routes/activities";
import { assetRoutes } from "./routes/assets";
import { controlRoutes } from "./routes/control";
import { fundingRoutes } from "./routes/funding";
import { instrumentRoutes } from "./routes/instruments";
import { journalRoutes } from "./routes/journals";
import { fundamentalsRoutes } from "./market-data/fundamentals";
import { futuresRoutes } from "./market-data/futures";
import { screenerRoutes } from "./market-data/screeners";
import { watchlistRoutes } from "./market-data/watchlists";
import { masterDataRoutes } from "./routes/master-data";
import { tokenRoutes } from "./routes/tokens";
import { tradingRoutes } from "./trading";
import { STATUS_PROBE_HEADER } from "@/server/wire/modules";
import { tradingApiRoutes, tradingCredentialRoutes } from "./trading-api/routes";

export type Logger = { error(obj: unknown, msg?: string): void };

/** The sandbox's HTTP application: request id → module switches → auth → call counter and injected faults → routes; errors as {"error_code","message"}. */
export function buildApp(sb: Sandbox, log: Logger = { error: (o, m) => console.error(m, o) }): Hono<HonoEnv> {
  const app = new Hono<HonoEnv>();

  app.use("*", async (c, next) => {
    const id = randomUUID();
    c.set("requestId", id);
    await next();
    if (!c.get("requestIdSent")) c.res.headers.set("x-request-id", id);
  });
  // `readingAhead`: the start-up's year of daily bars still being read (seconds of one core; a benchmark waits for it).
  app.get("/health", (c) => c.json({ status: "ok", readingAhead: sb.readingAhead }));
  // One middleware for the rest, in this order: a module switched off answers 503 before anything else looks at the
  // call (POST /sandbox/modules/{module}); then the signature, nonce and token (authenticate); then the call counter
  // and the injected faults. (Three middlewares before, the same steps: one level of Hono's chain instead of three.)
  const auth = authenticate(sb);
  app.use("*", async (c, next) => {
    const switched = c.req.path.startsWith("/sandbox/") ? undefined : sb.modules.apply(c.req.path);
    if (switched) await switched;
    return auth(c, async () => {
      // Faults never hit the control API, so a test can always clear them; nor does the call counter count it. The
      // desk's status probes are left out too: the counter and these faults are about what the desk's pages call
      // (the module switches above are what the probes are for).
      if (!c.req.path.startsWith("/sandbox/") && !c.req.header(STATUS_PROBE_HEADER)) {
        const key = `${c.req.method} ${c.req.path}`;
        sb.calls.set(key, (sb.calls.get(key) ?? 0) + 1);
        const requestId = c.req.method === "POST" ? clientRequestIdOf(c.get("rawBody")) : undefined;
        if (requestId) sb.callsByRequestId.set(`${key} ${requestId}`, (sb.callsByRequestId.get(`${key} ${requestId}`) ?? 0) + 1);
        const injected = sb.faults.apply(c.req.path);
        if (injected) await injected;
      }
      await next();
    });
  });

  tokenRoutes(app, sb);
  accountRoutes(app, sb);
  instrumentRoutes(app, sb);
  assetRoutes(app, sb);
  fundingRoutes(app, sb);
  journalRoutes(app, sb);
  activityRoutes(app, sb);
  masterDataRoutes(app, sb);
  tradingRoutes(app, sb);
  screenerRoutes(app, sb);
  fundamentalsRoutes(app, sb);
  futuresRoutes(app, sb);
  watchlistRoutes(app, sb);
  tradingApiRoutes(app, sb);
  tradingCredentialRoutes(app, sb);
  controlRoutes(app, sb);

  app.notFound((c) => c.json({ error_code: "NOT_FOUND", message: `No route ${c.req.method} ${c.req.path}.` }, 404));
  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return c.json({ error_code: err.code, message: err.message }, err.status as ContentfulStatusCode);
    }
    log.error({ err, requestId: c.get("requestId"), path: c.req.path }, "sandbox internal error");
    return c.json({ error_code: "INTERNAL_ERROR", message: "Internal error." }, 500);
  });
  return app;
}

/** A write's client_request_id, for the call counter: how many times each request reached the sandbox. */
function clientRequestIdOf(raw: string | undefined): string | undefined {
  if (!raw || !raw.includes("client_request_id")) return undefined;
  try {
    const id = (JSON.parse(raw) as { client_request_id?: unknown }).client_request_id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}
