import "server-only";
import type { Hono } from "hono";
import { activityTotals, adjustBalance, generateActivities } from "../activity-history";
import type { HonoEnv, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { FAULT_STATUSES } from "../faults";
import { isStatusModule } from "@/server/wire/modules";
import { movementView, processMovement } from "../movements";
import { MOVEMENT_KINDS, finish, type MovementKind, type RequestRow } from "../requests";
import { parseBody } from "../router";
import { resetToSeed } from "../seed";
import { clearTokenCache, confirmToken } from "../tokens";

/** The sandbox-only control API under /sandbox/. Signed like every call; no access token needed. */
export function controlRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  const post = (path: string, fn: (body: Record<string, unknown>) => Promise<unknown>) =>
    app.post(path, async (c) => c.json((await fn(parseBody(c.get("rawBody")))) as object));

  post("/sandbox/tokens/confirm", (b) => confirmToken(sb, sb.config.appKey, b.token));

  post("/sandbox/settings", async (b) => {
    if (b.auto_confirm_2fa !== undefined) {
      if (typeof b.auto_confirm_2fa !== "boolean") throw illegal("auto_confirm_2fa must be true or false.");
      sb.config.autoConfirm2fa = b.auto_confirm_2fa;
    }
    return { auto_confirm_2fa: sb.config.autoConfirm2fa };
  });

  post("/sandbox/faults", async (b) => {
    const type = b.type;
    if (type !== "LATENCY" && type !== "ERROR" && type !== "RATE_LIMIT") throw illegal("type must be LATENCY, ERROR or RATE_LIMIT.");
    if (typeof b.path_pattern !== "string" || !/^[/*]/.test(b.path_pattern)) throw illegal("path_pattern must be a path, * as wildcard.");
    const count = b.count ?? 1;
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 10_000) throw illegal("count must be 1 to 10000.");
    const latency = b.latency_ms ?? 0;
    if (!Number.isInteger(latency) || (latency as number) < 0 || (latency as number) > 60_000)
      throw illegal("latency_ms must be 0 to 60000.");
    const status = b.status ?? 500;
    if (type === "ERROR" && !FAULT_STATUSES.includes(status as number))
      throw illegal(`status must be one of ${FAULT_STATUSES.join(", ")}.`);
    return sb.faults.add({
      path_pattern: b.path_pattern,
      type,
      remaining: count as number,
      latency_ms: latency as number,
      status: status as number,
    });
  });
  app.get("/sandbox/faults", (c) => c.json({ data: sb.faults.list() }));

  // A whole module into outage (503 on every call of its paths) or degradation (latency, a share failing), until
  // set back to normal: what the status facility watches.
  app.post("/sandbox/modules/:module", async (c) => {
    const name = c.req.param("module");
    if (!isStatusModule(name) || name === "event-stream") throw illegal("module must be one of the upstream's API modules.");
    const b = parseBody(c.get("rawBody"));
    const state = b.state;
    if (state !== "outage" && state !== "degraded" && state !== "normal") throw illegal("state must be outage, degraded or normal.");
    const latency = b.latency_ms ?? 0;
    if (!Number.isInteger(latency) || (latency as number) < 0 || (latency as number) > 60_000)
      throw illegal("latency_ms must be 0 to 60000.");
    const rate = b.error_rate ?? 0;
    if (typeof rate !== "number" || rate < 0 || rate > 1) throw illegal("error_rate must be 0 to 1.");
    return c.json(sb.modules.set({ module: name, state, latency_ms: latency as number, error_rate: rate }));
  });
  app.get("/sandbox/modules", (c) => c.json({ data: sb.modules.list() }));
  post("/sandbox/faults/clear", async () => (sb.faults.clear(), { cleared: true }));

  // How many calls each operation answered (signed and authenticated ones), e.g. to count what one page view costs.
  app.get("/sandbox/calls", (c) =>
    c.json({ data: Object.fromEntries(sb.calls), total: [...sb.calls.values()].reduce((a, b) => a + b, 0) }),
  );
  // The same per write and client_request_id ("POST /path id"): whether any request reached the upstream twice.
  app.get("/sandbox/calls/by-request-id", (c) => c.json({ data: Object.fromEntries(sb.callsByRequestId) }));
  post("/sandbox/calls/reset", async () => (sb.calls.clear(), sb.callsByRequestId.clear(), { cleared: true }));

  // Synthetic history (no balance moves, no events) and the per-currency totals a test compares a copy with.
  post("/sandbox/activities/generate", (b) => generateActivities(sb.engine, b));
  app.get("/sandbox/activities/totals", async (c) => c.json(await activityTotals(sb.engine, c.req.query())));
  // A balance moved with no activity and no event: what the desk's reconciliation must report.
  post("/sandbox/balances/adjust", (b) => adjustBalance(sb.engine, b));

  post("/sandbox/reset", async () => {
    sb.faults.clear();
    sb.modules.clear();
    sb.holdRequests = false;
    await resetToSeed(sb.engine, sb.config);
    clearTokenCache(sb);
    return { reset: true };
  });

  // Hold mode: new funding / FX / journal requests stay SUBMITTED until completed or canceled here.
  post("/sandbox/requests/hold", async (b) => {
    if (typeof b.enabled !== "boolean") throw illegal("enabled must be true or false.");
    sb.holdRequests = b.enabled;
    return { hold: sb.holdRequests };
  });
  const transition = (action: "complete" | "cancel") => async (b: Record<string, unknown>) => {
    const kind = b.kind as MovementKind;
    if (!MOVEMENT_KINDS.includes(kind)) throw illegal(`kind must be one of ${MOVEMENT_KINDS.join(", ")}.`);
    const at = sb.config.now();
    return sb.engine.transaction(async (tx) => {
      const { rows } = await tx.query<RequestRow>("SELECT * FROM sandbox.requests WHERE kind = $1 AND client_request_id = $2 FOR UPDATE", [
        kind,
        b.client_request_id,
      ]);
      const row = rows[0];
      if (!row) throw business("REQUEST_NOT_FOUND", `No ${kind} request ${String(b.client_request_id)}.`);
      if (row.status !== "SUBMITTED")
        throw business("INVALID_STATUS_TRANSITION", `Request is ${row.status}; only SUBMITTED requests can change.`);
      const done =
        action === "complete" ? await processMovement(tx, row, at) : await finish(tx, row, { status: "CANCELED", reason: "Canceled." }, at);
      return movementView(done);
    });
  };
  post("/sandbox/requests/complete", transition("complete"));
  post("/sandbox/requests/cancel", transition("cancel"));
}
