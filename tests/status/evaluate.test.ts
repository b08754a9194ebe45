import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATUS_MODULES, type StatusModule } from "@/lib/status";
import { prepareAppDb, type AppDb } from "@/server/db";
import { recordingObserver } from "@/server/status";
import { evaluateStatus, type StatusDeps } from "@/server/status/evaluate";
import { selectModules } from "@/server/status/queries";
import { statusPageData } from "@/server/status/page";
import { StatusRecorder } from "@/server/status/recorder";
import { engines, masterAccountId, startFixture, type Fixture } from "../sandbox/fixture";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { until } from "../helpers/until";

/**
 * The evaluation against a started sandbox: one module switched into outage changes that module only, opens one
 * incident and closes it after recovery; two evaluators on one database evaluate a period once.
 */
describe.each(engines)("status evaluation on $name", (te) => {
  let f: Fixture;
  let app: { engine: AppDb["engine"]; close(): Promise<void> };
  beforeAll(async () => {
    f = await startFixture(te);
    const opened = await te.open();
    await prepareAppDb(opened.engine);
    app = { engine: opened.engine, close: opened.close };
  });
  afterAll(async () => {
    await app?.close();
    await f?.close();
  });

  /** An evaluator as one app instance has it: its own client, recorder and observer. */
  function evaluator(over: Partial<StatusDeps> = {}): StatusDeps {
    const recorder = new StatusRecorder(100);
    const client = sandboxBroker(f.sb.url, { timeoutMs: 2_000 }, { observe: recordingObserver(() => recorder) });
    // Tiny periods so a test runs evaluations back to back; the window's quarter (probe spacing) is 400 ms.
    return { engine: app.engine, client, recorder, evalMs: 1, windowMs: 1_600, silenceMs: 30_000, ...over };
  }
  const states = async () =>
    Object.fromEntries((await selectModules(app.engine)).map((r) => [r.module, r.state])) as Record<StatusModule, string>;
  const incidents = async () =>
    (
      await app.engine.query<{ module: string; state: string; ended_at: Date | null; evidence: Record<string, unknown> }>(
        "SELECT module, state, ended_at, evidence FROM brokerdesk.status_incidents ORDER BY id",
      )
    ).rows;
  const escalations = async () =>
    (
      await app.engine.query<{ state: string; started_at: Date; escalated_at: Date | null }>(
        "SELECT state, started_at, escalated_at FROM brokerdesk.status_incidents WHERE module = 'master-data' ORDER BY id",
      )
    ).rows;
  const setModule = (module: string, body: Record<string, unknown>) => f.api.call("POST", `/sandbox/modules/${module}`, { body });

  it("puts only the module in outage, opens one incident and closes it after recovery", async () => {
    const d = evaluator();
    // Every API module answers: operational (the event stream has no consumer here: unknown).
    await until(
      async () => (await evaluateStatus(d), (await states()).order === "operational" && (await states()).account === "operational"),
      20_000,
      "every module operational",
    );
    const before = await states();
    expect(before["event-stream"]).toBe("unknown");
    for (const m of STATUS_MODULES.filter((m) => m !== "event-stream")) expect(before[m], m).toBe("operational");

    expect((await setModule("order", { state: "outage" })).body).toMatchObject({ module: "order", state: "outage" });
    expect((await f.api.call("GET", "/sandbox/modules")).body.data).toContainEqual({
      module: "order",
      state: "outage",
      latency_ms: 0,
      error_rate: 0,
    });
    // The first evaluation after the probe fails points to outage; the hysteresis waits for the second.
    let seenCandidate = false;
    await until(
      async () => {
        await evaluateStatus(d);
        const row = (await selectModules(app.engine)).find((r) => r.module === "order");
        if (row?.state === "operational" && row.candidate === "outage") seenCandidate = true;
        return row?.state === "outage";
      },
      20_000,
      "order in outage",
    );
    expect(seenCandidate).toBe(true);
    const during = await states();
    for (const m of STATUS_MODULES.filter((m) => m !== "order" && m !== "event-stream")) expect(during[m], m).toBe("operational");
    const opened = await incidents();
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ module: "order", state: "outage", ended_at: null });
    expect(opened[0].evidence.reason).toMatch(/probe failed/);

    // The page (staff): Order in outage with its open incident; signed out: states only.
    const page = await statusPageData(app.engine, true);
    const order = page.modules.find((m) => m.module === "order")!;
    expect(order).toMatchObject({ state: "outage", evidence: expect.stringMatching(/probe failed/) });
    expect(order.incidents).toHaveLength(1);
    expect(order.uptime).toHaveLength(90);
    expect(order.uptime.at(-1)!.percent).toBeLessThan(100);
    const open = (await statusPageData(app.engine, false)).modules.find((m) => m.module === "order")!;
    expect(open.state).toBe("outage");
    expect(open).not.toHaveProperty("incidents");
    expect(open).not.toHaveProperty("evidence");

    await setModule("order", { state: "normal" });
    await until(async () => (await evaluateStatus(d), (await states()).order === "operational"), 20_000, "order operational again");
    const closed = await incidents();
    expect(closed).toHaveLength(1);
    expect(closed[0].ended_at).toBeInstanceOf(Date);
    expect(closed[0].evidence.resolved).toMatch(/probe answered/);
  });

  it("an incident that opens degraded and becomes an outage is one incident, escalated when it changed", async () => {
    const d = evaluator({ windowMs: 20_000 });
    // Master data: a rate budget of 10 calls a second keeps all 20 calls within the window's latest quarter (5 s).
    const calendar = () => d.client.listTradeCalendar({ market: "US", year: 2026 });
    const settle = async (state: string) => {
      await evaluateStatus(d);
      await evaluateStatus(d);
      expect((await selectModules(app.engine)).find((r) => r.module === "master-data")?.state).toBe(state);
    };
    try {
      for (let i = 0; i < 8; i++) await calendar();
      await setModule("master-data", { state: "outage" });
      for (let i = 0; i < 2; i++) await expect(calendar()).rejects.toMatchObject({ status: 503 });
      await settle("degraded"); // 2 of 10 calls failed
      const [opened] = await escalations();
      expect(opened).toMatchObject({ state: "degraded", escalated_at: null });

      for (let i = 0; i < 10; i++) await expect(calendar()).rejects.toMatchObject({ status: 503 });
      await settle("outage"); // 12 of 20
      const after = await escalations();
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ state: "outage", started_at: opened!.started_at });
      expect(after[0]!.escalated_at!.getTime()).toBeGreaterThanOrEqual(opened!.started_at.getTime());
      // The page's incident says when the degraded start ended.
      const page = await statusPageData(app.engine, true);
      expect(page.modules.find((m) => m.module === "master-data")!.incidents![0]).toMatchObject({
        state: "outage",
        startedAt: opened!.started_at.toISOString(),
        escalatedAt: after[0]!.escalated_at!.toISOString(),
      });
    } finally {
      await setModule("master-data", { state: "normal" });
      // Back to operational (a short window forgets the failures), as the other tests find it.
      const short = evaluator();
      await until(
        async () => (await evaluateStatus(short), (await states())["master-data"] === "operational"),
        20_000,
        "master data operational again",
      );
    }
  });

  it("counts the desk's own calls: three failing calls lately make an outage without a probe", async () => {
    // A 20 s window: the calls below stay in its latest quarter for both evaluations.
    const d = evaluator({ windowMs: 20_000 });
    await setModule("assets", { state: "outage" });
    try {
      for (let i = 0; i < 3; i++)
        await expect(d.client.getBalance({ account_id: masterAccountId() })).rejects.toMatchObject({ status: 503 });
      const first = await evaluateStatus(d);
      expect(first?.probed).not.toContain("assets");
      expect((await selectModules(app.engine)).find((r) => r.module === "assets")).toMatchObject({ candidate: "outage" });
      await evaluateStatus(d);
      const row = (await selectModules(app.engine)).find((r) => r.module === "assets")!;
      expect(row.state).toBe("outage");
      expect(row.evidence.reason).toMatch(/^3 of 3 calls failed in the last \d+ (s|min) /);
    } finally {
      await setModule("assets", { state: "normal" });
    }
  });

  it("lets two evaluators evaluate a period once and open one incident", async () => {
    const long = { evalMs: 60_000 };
    await app.engine.query("UPDATE brokerdesk.status_evaluator SET evaluated_at = 'epoch'");
    const both = await Promise.all([evaluateStatus(evaluator(long)), evaluateStatus(evaluator(long))]);
    expect(both.filter((r) => r !== undefined)).toHaveLength(1);

    // Both evaluating as fast as they can while the funding module is down: one incident.
    await setModule("funding", { state: "outage" });
    const a = evaluator();
    const b = evaluator();
    try {
      await until(
        async () => (await Promise.all([evaluateStatus(a), evaluateStatus(b)]), (await states()).funding === "outage"),
        20_000,
        "funding in outage",
      );
      // A few more rounds in outage open nothing more.
      for (let i = 0; i < 3; i++) await Promise.all([evaluateStatus(a), evaluateStatus(b)]);
      expect((await incidents()).filter((i) => i.module === "funding" && i.ended_at === null)).toHaveLength(1);
    } finally {
      await setModule("funding", { state: "normal" });
    }
  });
});

describe.each(engines)("the status page's uptime on $name", (te) => {
  it("weighs each day by its evaluations and says how long they cover", async () => {
    const { engine, close } = await te.open();
    try {
      await prepareAppDb(engine);
      // Yesterday a whole day operational (5,760 evaluations of 15 s); today a blip in the first minute: 2 of 4.
      await engine.query(
        `INSERT INTO brokerdesk.status_daily (module, day, evaluations, operational, known) VALUES
           ('assets', (now() AT TIME ZONE 'UTC')::date - 1, 5760, 5760, 5760),
           ('assets', (now() AT TIME ZONE 'UTC')::date, 4, 2, 4)`,
      );
      const assets = (await statusPageData(engine, false, 15_000)).modules.find((m) => m.module === "assets")!;
      expect(assets.uptime.slice(-2).map((d) => d.percent)).toEqual([100, 50]);
      // 5,762 of 5,764 evaluations, over a day and a minute: not the 75 % of averaging the two days' shares.
      expect(assets.overall).toEqual({ percent: 99.97, observedMs: 5_764 * 15_000 });
      const none = (await statusPageData(engine, false, 15_000)).modules.find((m) => m.module === "funding")!;
      expect(none.overall).toEqual({ percent: null, observedMs: 0 });
    } finally {
      await close();
    }
  });
});
