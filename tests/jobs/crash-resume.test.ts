import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import { JOBS_SCHEMA } from "@/server/db/boss-db";
import type { JobsHandle } from "@/server/jobs/runtime";
import { createServerDatabase } from "../helpers/engines";
import { until } from "../helpers/until";
import { PROBE_QUEUE, PROBE_TABLE, probeJob, startProbeJobs } from "./probe";

/**
 * A worker process killed in the middle of a job (SIGKILL: no shutdown, its job stays active): once the job expires,
 * pg-boss's maintenance fails it and its retry runs on the worker started after, which finishes it. The job's work
 * is done exactly once. On the PostgreSQL server (one PGlite database belongs to one process).
 */
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("a job whose worker died (postgres)", () => {
  let url: string;
  let drop: () => Promise<void>;
  let db: AppDb;
  let jobs: JobsHandle | undefined;
  beforeAll(async () => {
    ({ url, drop } = await createServerDatabase(serverUrl!));
    db = await prepareAppDb(await openEngine({ url, poolSize: 5 }));
    await db.engine.query(PROBE_TABLE);
  });
  afterAll(async () => {
    await jobs?.stop();
    await db?.engine.close();
    await drop?.();
  });
  const marks = async (id: string) =>
    (await db.engine.query<{ mark: string }>("SELECT mark FROM public.probe_marks WHERE job_id = $1 ORDER BY at", [id])).rows.map(
      (r) => r.mark,
    );

  it("is taken up again after the restart and completes once", async () => {
    // The worker is this node process itself (tsx as a loader, not its CLI, which would run it as a grandchild).
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "tests/jobs/probe.ts", url], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise((r) => child.on("exit", r));
    try {
      await until(() => out.includes("ready"), 60_000, "the worker process");
      const sender = await startProbeJobs(db, probeJob(), { maintenanceIntervalSeconds: 1 });
      const boss = sender.boss;
      // Only a sender for now: its worker is stopped before the job is sent, so the hanging worker takes it.
      await boss.offWork(PROBE_QUEUE);
      const id = await boss.send(PROBE_QUEUE, { id: "crash" });
      expect(id).toBeTruthy();
      await until(async () => (await marks("crash")).length === 1, 30_000, "the worker to start the job");
      child.kill("SIGKILL");
      await exited;
      const state = async () =>
        (
          await db.engine.query<{ state: string; retry_count: number }>(
            `SELECT state::text, retry_count FROM ${JOBS_SCHEMA}.job WHERE id = $1`,
            [id],
          )
        ).rows[0];
      expect(await state()).toMatchObject({ state: "active", retry_count: 0 });
      await sender.stop();

      // The restart: a new worker on the same queue.
      jobs = await startProbeJobs(db, probeJob(), { maintenanceIntervalSeconds: 1 });
      await until(async () => (await state())?.state === "completed", 60_000, "the job to complete after its retry");
      expect(await state()).toEqual({ state: "completed", retry_count: 1 });
      expect(await marks("crash")).toEqual(["attempt", "attempt", "effect"]);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 120_000);
});
