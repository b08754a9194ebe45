import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { JOBS_SCHEMA } from "@/server/db/boss-db";
import { cronEvery, JOBS, type JobDefinition } from "@/server/jobs/definitions";
import { queueCounts, recentJobs } from "@/server/jobs/queries";
import { startJobs, type JobsHandle } from "@/server/jobs/runtime";
import { testEngines } from "../helpers/engines";
import { until } from "../helpers/until";
import { PROBE_QUEUE, PROBE_TABLE, probeDeps, probeJob, startProbeJobs } from "./probe";

/** The job system on each engine: its queues and schedules, one run of a singleton across two workers, a failed run retried. */
describe.each(testEngines())("the job system ($name)", (te) => {
  let db: AppDb;
  let close: () => Promise<void>;
  const started: JobsHandle[] = [];
  beforeAll(async () => {
    const opened = await te.open();
    db = await prepareAppDb(opened.engine);
    close = opened.close;
    await db.engine.query(PROBE_TABLE);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((j) => j.stop()));
  });
  afterAll(async () => close?.());
  const state = async (id: string) =>
    (
      await db.engine.query<{ state: string; retry_count: number }>(
        `SELECT state::text, retry_count FROM ${JOBS_SCHEMA}.job WHERE id = $1`,
        [id],
      )
    ).rows[0];
  const marks = async (id: string) =>
    (await db.engine.query<{ mark: string }>("SELECT mark FROM public.probe_marks WHERE job_id = $1 ORDER BY at", [id])).rows.map(
      (r) => r.mark,
    );

  it("declares every queue with its policy and registers the schedules from the configuration", async () => {
    const deps = { ...probeDeps(db), reconcileIntervalMs: 600_000, activities: { intervalMs: 120_000 } };
    // Declared and scheduled only: no worker here (the backfill would call the upstream).
    const jobs = await startJobs({ deps, jobs: [JOBS.activitiesSweep, JOBS.reconcile, JOBS.approvalsExpiry, JOBS.surveillance] });
    started.push(jobs);
    for (const name of [JOBS.activitiesSweep.name, JOBS.reconcile.name, JOBS.approvalsExpiry.name, JOBS.surveillance.name])
      await jobs.boss.offWork(name);
    const queues = await queueCounts(db.engine);
    expect(Object.fromEntries(queues.map((q) => [q.name, [q.policy, q.cron]]))).toMatchObject({
      "activities-sweep": ["stately", "*/2 * * * *"],
      reconcile: ["stately", "*/10 * * * *"],
      "approvals-expiry": ["singleton", "* * * * *"],
      surveillance: ["stately", "* * * * *"],
    });
    expect(queues.find((q) => q.name === "reconcile")).toMatchObject({ retry_limit: 2, expire_seconds: 600 });
  });

  it("runs one job of a stately queue at a time across two workers, and keeps one more waiting", async () => {
    let active = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Released however the test ends, so that no run is left hanging for the next test.
    onTestFinished(() => release());
    const job: JobDefinition = {
      ...probeJob(),
      async run(data, d) {
        active += 1;
        most = Math.max(most, active);
        await d.db.engine.query("INSERT INTO public.probe_marks (job_id, mark) VALUES ($1, 'attempt')", [
          String((data as { id: string }).id),
        ]);
        await gate;
        active -= 1;
        return {};
      },
    };
    const a = await startProbeJobs(db, job);
    const b = await startProbeJobs(db, job);
    started.push(a, b);
    const first = await a.boss.send(PROBE_QUEUE, { id: "s1" });
    await until(async () => (await marks("s1")).length === 1, 20_000, "the first job to start");
    const second = await b.boss.send(PROBE_QUEUE, { id: "s2" });
    // A third while one waits: the queue keeps one waiting, so it is not added.
    expect(await a.boss.send(PROBE_QUEUE, { id: "s3" })).toBeNull();
    expect(second).toBeTruthy();
    // The waiting one is not handed out while the first is active: the other worker's fetch, asked for directly, gets nothing.
    expect(await b.boss.fetch(PROBE_QUEUE)).toEqual([]);
    expect(await state(second!)).toMatchObject({ state: "created" });
    expect(
      (await recentJobs(db.engine, 20))
        .filter((j) => j.name === PROBE_QUEUE)
        .map((j) => j.state)
        .sort(),
    ).toEqual(["active", "created"]);
    release();
    await until(async () => (await state(second!))?.state === "completed", 20_000, "the second job");
    expect(await state(first!)).toMatchObject({ state: "completed" });
    expect(most).toBe(1);
    expect(await marks("s1")).toEqual(["attempt"]);
    expect(await marks("s2")).toEqual(["attempt"]);
  });

  it("retries a failed run, and completes it when the retry succeeds; both runs are told when the job was sent", async () => {
    let runs = 0;
    const sentAt: (string | undefined)[] = [];
    const job: JobDefinition = {
      ...probeJob({ retryLimit: 1 }),
      async run(data) {
        runs += 1;
        sentAt.push(data.sentAt);
        if (runs === 1) throw new Error("upstream unavailable");
        return { output: { runs } };
      },
    };
    const jobs = await startProbeJobs(db, job);
    started.push(jobs);
    const id = await jobs.send(PROBE_QUEUE, {});
    await until(async () => (await state(id!))?.state === "completed", 20_000, "the retried job");
    expect(await state(id!)).toEqual({ state: "completed", retry_count: 1 });
    expect(runs).toBe(2);
    // The send's time, the database's, not the retry's.
    const { rows } = await db.engine.query<{ created: Date }>(`SELECT created_on AS created FROM ${JOBS_SCHEMA}.job WHERE id = $1`, [id]);
    expect(sentAt).toEqual([rows[0].created.toISOString(), rows[0].created.toISOString()]);
  });

  it("a job whose fetch was on its way when the system stopped gets a stopped signal: it ends at its resumable point", async () => {
    // The worker's next fetch of the queue held on its way to the database until the stop has been asked for: at the
    // engine on PGlite, at the pool on the server (server/db/boss-db.ts sends pg-boss's statements there).
    const driver = (db.engine.kind === "pglite" ? db.engine : db.engine.driver) as unknown as {
      query: (text: string, values?: unknown[]) => Promise<unknown>;
    };
    const query = driver.query;
    let fetching!: () => void;
    const reached = new Promise<void>((r) => (fetching = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let gated = false;
    driver.query = async function (this: unknown, text: string, values?: unknown[]) {
      if (!gated && text.includes("FOR UPDATE SKIP LOCKED") && values?.[0] === "stop-probe") {
        gated = true;
        fetching();
        await held;
      }
      return query.call(this, text, values);
    };
    onTestFinished(() => {
      driver.query = query;
      release();
    });
    let stoppedAtStart: boolean | undefined;
    const job: JobDefinition = {
      ...probeJob(),
      name: "stop-probe",
      async run(_data, _deps, _state, signal) {
        stoppedAtStart = signal.aborted;
        // A run works until its signal says stop (here, at the latest its time slice: 6 s).
        if (!signal.aborted) await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
        return {};
      },
    };
    const jobs = await startProbeJobs(db, job);
    await reached;
    await jobs.send("stop-probe", {});
    const stopped = jobs.stop();
    release();
    await stopped;
    // The fetch returns the job, and the worker runs it however the stop went (pg-boss does not look again).
    await until(() => stoppedAtStart !== undefined, 20_000, "the fetched job's run");
    expect(stoppedAtStart).toBe(true);
  });

  it("turns an interval into a cron line to whole minutes", () => {
    expect([cronEvery(1_000), cronEvery(60_000), cronEvery(300_000), cronEvery(7_200_000), cronEvery(86_400_000 * 2)]).toEqual([
      "* * * * *",
      "* * * * *",
      "*/5 * * * *",
      "0 */2 * * *",
      "0 0 * * *",
    ]);
  });
});
