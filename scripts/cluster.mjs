#!/usr/bin/env node
// `npm run start:cluster`: Brokerdesk as two app instances behind nginx, on one PostgreSQL server (DATABASE_URL): the
// embedded sandbox when no BROKER_BASE_URL, the event consumer and job system, `next start` on PORT+1 and PORT+2 and
// nginx on PORT (default 3000), each a supervised process group (scripts/cluster-lib.mjs). SIGINT/SIGTERM stop all.
import { startCluster } from "./cluster-lib.mjs";
import { loadDotEnv } from "./lib.mjs";

loadDotEnv();
let cluster;
try {
  cluster = startCluster(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.exit(code);
}
process.on("SIGINT", () => void stop(130));
process.on("SIGTERM", () => void stop(143));

try {
  await cluster.ready;
} catch (error) {
  console.error(String(error));
  await stop(1);
}
const [a, b] = cluster.appPorts;
console.log(
  `Brokerdesk: http://localhost:${cluster.port} (nginx in front of the instances on 127.0.0.1:${a} and :${b}; ` +
    `their process group ids in ${cluster.clusterDir})`,
);
