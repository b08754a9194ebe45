import "server-only";
import type PgBoss from "pg-boss";
import { getDb } from "@/server/db";
import { openBoss } from "@/server/db/boss-db";
import { JOB_LIST, jobByName, type JobData } from "./definitions";
import { NotFoundError } from "@/lib/errors";
import { declareQueues } from "./runtime";

// The process's boss, even when the bundler loads this module in several chunks: the one that works the jobs when
// this process runs them (PGlite: the app), else one that only sends (the app beside `npm run events`).
const holder = globalThis as unknown as { __brokerdeskBoss?: Promise<PgBoss> };

/** The boss that works the jobs in this process (server/jobs/run.ts): sends go through it. */
export function setProcessBoss(boss: PgBoss | undefined): void {
  holder.__brokerdeskBoss = boss ? Promise.resolve(boss) : undefined;
}

function processBoss(): Promise<PgBoss> {
  holder.__brokerdeskBoss ??= (async () => {
    const boss = await openBoss((await getDb()).engine, { supervise: false });
    await declareQueues(boss, JOB_LIST);
    return boss;
  })().catch((error) => {
    holder.__brokerdeskBoss = undefined;
    throw error;
  });
  return holder.__brokerdeskBoss;
}

/** Asks for a job now (a page's request). `queued: false` when one is already waiting (the queue keeps one). */
export async function requestJob(name: string, data: JobData = {}): Promise<{ queued: boolean; jobId: string | null }> {
  const jobId = await (await processBoss()).send(name, data);
  return { queued: jobId !== null, jobId };
}

/** The jobs page's "Run now": a queue that may be run on request, on behalf of `by`. */
export async function runJobNow(name: string, by: string): Promise<{ queued: boolean; jobId: string | null }> {
  const job = jobByName(name);
  if (!job?.onRequest) throw new NotFoundError("This job cannot be run on request.");
  const data = job.request ? await job.request((await getDb()).engine, by) : { requestedBy: by };
  return requestJob(name, data);
}

/** Makes sure the job system's schema and queues exist (the jobs page reads them before any job ran). */
export async function ensureJobs(): Promise<void> {
  await processBoss();
}

/** Retries a failed job (the admin page). */
export async function retryJob(name: string, id: string): Promise<void> {
  await (await processBoss()).retry(name, id);
}
