import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import { recordingObserver } from "@/server/status";
import { selectCallTotals } from "@/server/status/queries";
import { StatusRecorder } from "@/server/status/recorder";
import { until } from "../helpers/until";
import { configReply, startFakeUpstream, testClient } from "../broker/helpers/fake-upstream";

/** The evidence the desk's client records of each call, under the operation's module. */
describe("status recorder", () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let db: AppDb;
  beforeAll(async () => {
    upstream = await startFakeUpstream(
      (req) =>
        configReply(req) ??
        {
          // A business refusal: the Order module answered.
          "/broker/orders/get": { status: 417, json: { error_code: "ORDER_NOT_FOUND", message: "no such order" } },
          "/broker/assets/balances/get": { status: 503, json: { error_code: "SERVICE_NOT_AVAILABLE", message: "down" } },
          "/broker/funding/fx-rates/get": { hang: true },
          "/broker/journals/cash-journals/get": { status: 429, json: { error_code: "TOO_MANY_REQUESTS", message: "slow down" } },
        }[req.path] ?? { json: { data: [] } },
    );
    db = await prepareAppDb(await openEngine({}));
  });
  afterAll(async () => {
    await upstream.close();
    await db.engine.close();
  });

  const client = (recorder: StatusRecorder) =>
    testClient(upstream.url, { maxRetries: 0, timeoutMs: 300 }, { observe: recordingObserver(() => recorder) }).client;
  const byModule = (r: StatusRecorder) => Object.fromEntries(r.pending().map((p) => [`${p.module}/${p.source}`, [p.calls, p.failures]]));

  it("counts 5xx and timeouts as failures, business refusals and 429 as answers", async () => {
    const recorder = new StatusRecorder(60_000);
    const c = client(recorder);
    await expect(c.getOrder({ account_id: "A1", client_order_id: "nope" })).rejects.toMatchObject({ status: 417 });
    await expect(c.getBalance({ account_id: "A1" })).rejects.toMatchObject({ status: 503 });
    await expect(c.transport.call("getFxRate", { query: { source_currency: "USD" } })).rejects.toMatchObject({ errorCode: "TIMEOUT" });
    await expect(c.transport.call("getCashJournal", {})).rejects.toMatchObject({ status: 429 });
    await c.transport.call("listVirtualAccounts", { query: { page_size: 1 } });
    await c.transport.call("listOpenOrders", { probe: true });
    expect(byModule(recorder)).toEqual({
      "order/call": [1, 0],
      "assets/call": [1, 1],
      "funding/call": [1, 1],
      "journals/call": [1, 0],
      "account/call": [1, 0],
      "order/probe": [1, 0],
    });
  });

  it("does not count a call its caller aborted, nor the token calls", async () => {
    const recorder = new StatusRecorder(60_000);
    const c = client(recorder);
    await c.tokens.tokenCheckEnabled();
    const ac = new AbortController();
    const seen = upstream.seen.length;
    const call = c.transport.call("getFxRate", { signal: ac.signal, timeoutMs: 10_000 });
    await until(() => upstream.seen.length > seen, 5_000, "the call to reach the upstream");
    ac.abort(new Error("page left"));
    await expect(call).rejects.toMatchObject({ errorCode: "ABORTED" });
    expect(recorder.pending()).toEqual([]);
  });

  it("adds every instance's buckets together in the database", async () => {
    const a = new StatusRecorder(60_000);
    const b = new StatusRecorder(60_000);
    const at = Date.now();
    a.record("order", { kind: "answer", status: 200 }, 100, "call", at);
    a.record("order", { kind: "answer", status: 502 }, 300, "call", at);
    b.record("order", { kind: "network" }, 50, "call", at);
    b.record("market-data", { kind: "answer", status: 200 }, 2_500, "call", at);
    await a.flush(db.engine);
    await b.flush(db.engine);
    expect(a.pending()).toEqual([]);
    const rows = Object.fromEntries((await selectCallTotals(db.engine, 120_000, 120_000)).map((r) => [r.module, r]));
    expect(rows.order).toMatchObject({ calls: "3", failures: "2", latency_ms_sum: "450", recent_calls: "3" });
    expect(rows["market-data"]).toMatchObject({ calls: "1", failures: "0", slow: "1" });
  });
});
