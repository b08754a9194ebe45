// The pieces of `npm run start:cluster` (scripts/cluster.mjs) that a drill or a soak reuses: Brokerdesk as two app
// instances behind nginx, on one PostgreSQL server. Plain Node, no build step.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { bin, buildIfStale, ensureAuthSecret, root, supervise, waitForHttp } from "./lib.mjs";

const NGINX_PATHS = ["/usr/sbin/nginx", "/usr/bin/nginx"];
const findNginx = (env) => (env.NGINX_PATH ? [env.NGINX_PATH] : NGINX_PATHS).find((p) => fs.existsSync(p));

/**
 * nginx's path (NGINX_PATH, else Debian's): Debian's nginx installed with apt when missing and running as root.
 * Undefined, with what to install said, when it is missing otherwise.
 */
export function ensureNginx(env = process.env) {
  const found = findNginx(env);
  if (found) return found;
  if (env.NGINX_PATH) {
    console.error(`nginx is missing at ${env.NGINX_PATH} (NGINX_PATH).`);
    return undefined;
  }
  if (process.getuid?.() !== 0) {
    console.error("nginx is missing. Install Debian's nginx package (sudo apt-get install nginx) or set NGINX_PATH.");
    return undefined;
  }
  console.log("Installing Debian's nginx with apt…");
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", "nginx"],
  ]) {
    if (spawnSync("apt-get", args, { stdio: "inherit", env: aptEnv }).status !== 0) return undefined;
  }
  return findNginx(env);
}

/** deploy/nginx/brokerdesk.conf with this cluster's ports and paths filled in. */
function nginxConf({ port, appPorts, runDir }) {
  const values = {
    // As root, nginx's workers would run as nobody, who may not reach a data dir under a private directory.
    USER: process.getuid?.() === 0 ? "user root;" : "",
    RUN_DIR: runDir,
    PORT: String(port),
    APP_1_PORT: String(appPorts[0]),
    APP_2_PORT: String(appPorts[1]),
  };
  const template = fs.readFileSync(path.join(root, "deploy", "nginx", "brokerdesk.conf"), "utf8");
  return template.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`deploy/nginx/brokerdesk.conf: no value for {{${key}}}`);
    return values[key];
  });
}

const groupAlive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Starts the cluster on `env` (DATABASE_URL required): builds the app when stale, then the embedded sandbox when no
 * BROKER_BASE_URL (and waits for it), the event consumer and job system, two `next start` instances on
 * 127.0.0.1 (CLUSTER_APP_PORTS, default PORT+1 and PORT+2) and nginx in front on PORT (default 3000), each a
 * supervised process group whose id is in `<dataDir>/cluster/<name>.pgid` (sandbox, events, app-1, app-2, nginx).
 * Throws at once when something is missing; `ready` settles once every instance and the balancer answer;
 * `stop()` ends every group and resolves once they are gone.
 */
export function startCluster(baseEnv = process.env) {
  const env = { ...baseEnv, NEXT_TELEMETRY_DISABLED: "1" };
  if (!env.DATABASE_URL) {
    throw new Error(
      "DATABASE_URL is required: the instances, the event consumer and the sandbox share one PostgreSQL server " +
        "(for example DATABASE_URL=postgres://postgres@127.0.0.1:5432/brokerdesk, the database created first: createdb brokerdesk).",
    );
  }
  const dataDir = path.resolve(root, env.BROKERDESK_DATA_DIR ?? ".data");
  env.BROKERDESK_DATA_DIR = dataDir;
  const clusterDir = path.join(dataDir, "cluster");
  const runDir = path.join(clusterDir, "nginx");
  fs.mkdirSync(runDir, { recursive: true });
  if (!ensureAuthSecret(env, dataDir)) throw new Error("AUTH_SECRET is missing.");
  const nginx = ensureNginx(env);
  if (!nginx) throw new Error("Cannot start the balancer without nginx.");

  const port = Number(env.PORT ?? 3000);
  env.PORT = String(port); // the desk's own address in its mails: the balancer's
  const appPorts = env.CLUSTER_APP_PORTS ? env.CLUSTER_APP_PORTS.split(",").map(Number) : [port + 1, port + 2];
  const sandboxUrl = `http://${env.SANDBOX_HOST ?? "127.0.0.1"}:${env.SANDBOX_PORT ?? 4100}`;
  const embedded = !env.BROKER_BASE_URL;

  const confPath = path.join(runDir, "nginx.conf");
  fs.writeFileSync(confPath, nginxConf({ port, appPorts, runDir }));
  const nginxArgs = ["-p", `${runDir}/`, "-c", confPath, "-e", "stderr"];
  const check = spawnSync(nginx, [...nginxArgs, "-t", "-q"], { stdio: "inherit" });
  if (check.status !== 0) throw new Error(`nginx refused ${confPath}.`);
  if (!buildIfStale(env)) throw new Error("The build failed.");

  const groups = new Map(); // name → its supervisor
  const current = new Map(); // name → the pid of its running child (its process group's id)
  let stopped = false;
  const start = (name, label, command, args, childEnv = env) => {
    if (stopped) return;
    const file = path.join(clusterDir, `${name}.pgid`);
    const onStart = (child) => {
      current.set(name, child.pid);
      fs.writeFileSync(file, String(child.pid));
    };
    groups.set(name, supervise(label, command, args, { env: childEnv, onStart }));
  };
  const tsx = (script) => [bin("tsx"), ["--conditions=react-server", script]];

  const ready = (async () => {
    if (embedded) {
      start("sandbox", "The sandbox", ...tsx("server/sandbox/main.ts"));
      await waitForHttp(`${sandboxUrl}/health`, 120_000);
    }
    if ((env.EVENTS_CONSUMER ?? "auto") === "auto") start("events", "The event consumer", ...tsx("server/events/main.ts"));
    // The balancer appends the client's address to X-Forwarded-For: one trusted hop for the audit trail's client IP.
    const appEnv = { ...env, TRUSTED_PROXY_HOPS: env.TRUSTED_PROXY_HOPS ?? "1" };
    appPorts.forEach((p, i) =>
      start(`app-${i + 1}`, `App instance ${i + 1}`, bin("next"), ["start", "-p", String(p), "-H", "127.0.0.1"], appEnv),
    );
    // The balancer once both instances answer (before, it would take each for dead and refuse every request).
    await Promise.all(appPorts.map((p) => waitForHttp(`http://127.0.0.1:${p}/api/health`, 300_000)));
    start("nginx", "nginx", nginx, [...nginxArgs, "-g", "daemon off;"]);
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, 60_000);
  })();
  ready.catch(() => undefined); // the caller's to report

  return {
    port,
    appPorts,
    sandboxUrl,
    dataDir,
    clusterDir,
    ready,
    /** The process group id of a running member (sandbox, events, app-1, app-2, nginx). */
    pgid: (name) => current.get(name),
    async stop() {
      stopped = true;
      const pgids = [...current.values()];
      for (const group of groups.values()) group.stopGroup();
      const deadline = Date.now() + 15_000;
      while (pgids.some(groupAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      for (const pgid of pgids.filter(groupAlive)) process.kill(-pgid, "SIGKILL");
      for (const name of current.keys()) fs.rmSync(path.join(clusterDir, `${name}.pgid`), { force: true });
    },
  };
}
