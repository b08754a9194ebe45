// `npm run events`: the background process on a PostgreSQL server (production, several app instances on one server):
// the upstream event consumer (stand-by instances wait for the leader lock) and the job system (server/jobs: any
// number of these processes share its queues). `npm run events -- rebuild` rebuilds the read model from the stored
// events and exits.
import { env } from "@/lib/env";
import { getDb } from "@/server/db";
import { exitIfEmbeddedDbInUse } from "@/server/db/embedded-lock";
import { surviveLostConnections } from "@/server/db/unheard";
import { startConfiguredJobs } from "@/server/jobs/run";
import { logger } from "@/server/log";
import { rebuildReadModel } from "@/server/books/ingest";
import { startConfiguredEventService } from "./run";

if (process.argv.includes("rebuild")) exitIfEmbeddedDbInUse();
surviveLostConnections((msg, err) => logger.warn({ err }, msg));
const db = await getDb();
if (process.argv.includes("rebuild")) {
  const started = Date.now();
  const n = await rebuildReadModel(db.engine);
  console.log(`Rebuilt the read model from ${n} stored events in ${Date.now() - started} ms.`);
  await db.engine.close();
  process.exit(0);
}
if (!env().DATABASE_URL) {
  console.error("npm run events needs DATABASE_URL: on the embedded database (PGlite) the app runs the consumer itself.");
  process.exit(1);
}
const service = startConfiguredEventService(db.engine);
if (service) logger.info({ instance: service.instance }, "event consumer started (stand-by until it holds the leader lease)");
const jobs = await startConfiguredJobs(db);
logger.info("job system started");
const stop = async () => {
  await service?.stop();
  await jobs.stop();
  await db.engine.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
