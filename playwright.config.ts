import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4210);
export const baseURL = `http://127.0.0.1:${PORT}`;
/** The e2e app's open-orders sweep rate (e2e/orders-sweep.spec.ts bounds a cycle by it). */
export const E2E_SWEEP_RATE = 4;
/** How long an expectation waits for the page to be ready (see `expect` below); a spec's own waits use it too. */
export const READY_MS = 20_000;
/** One run's own app data (scripts/e2e.mjs gives each shard its own, with its own ports). */
const DATA_DIR = process.env.E2E_DATA_DIR ?? ".data/e2e";
const SHARD = process.env.E2E_SHARD_NAME ?? "";

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  // No retry: a spec that fails once has a cause to find (a retry would report it as flaky and let it land).
  retries: 0,
  // Two shards share the machine's two cores (scripts/e2e.mjs): a spec of many steps (several journals and sign-ins, the
  // activities pages over tens of thousands of rows) took over a minute there while each step still passed.
  timeout: 120_000,
  // A readiness allowance, not a latency bound: a passing step waits only as long as it needs. Clean-clone runs on a
  // machine twice as slow as usual met the former 10 s in a page's hydration under the other shard's load.
  expect: { timeout: READY_MS },
  reporter: [["list"], ["json", { outputFile: `reports/playwright${SHARD && `-${SHARD}`}.json` }]],
  outputDir: SHARD ? `test-results/${SHARD}` : "test-results",
  use: {
    baseURL,
    // A trace only when asked for (E2E_TRACE=1, kept for the tests that fail): recording one for every test cost about
    // 15 % of the suite's CPU, and a run's failures print their page snapshots to the log (scripts/e2e.mjs).
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium headless shell (scripts/e2e.mjs installs it): the full browser costs about twice the CPU a page.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    { name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } }, dependencies: ["setup"] },
  ],
  webServer: {
    // The README's start command, on a fresh embedded database and sandbox (scripts/e2e.mjs clears .data/e2e).
    // Its JSON logs (warnings and errors, LOG_LEVEL below) into its data directory: scripts/e2e.mjs prints those of a
    // failed test's last minutes with the test's page, for a CI run leaves nothing but its log.
    command: `mkdir -p "${DATA_DIR}" && exec node scripts/start.mjs > "${DATA_DIR}/app.log"`,
    url: `${baseURL}/api/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "ignore", // written to app.log above; the processes' own errors still reach stderr
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      SANDBOX_PORT: String(SANDBOX_PORT),
      SANDBOX_GRPC_PORT: String(SANDBOX_PORT + 1),
      BROKERDESK_DATA_DIR: DATA_DIR,
      LOG_LEVEL: "warn",
      // An upstream outage shows within seconds (the banner, the stream-health page), not the production 30 s.
      EVENTS_ALERT_AFTER_MS: "3000",
      EVENTS_BACKOFF_MAX_MS: "1000",
      // FX quotes expire on screen within seconds, so the movement forms' re-quote is seen (sandbox default 60 s).
      SANDBOX_FX_QUOTE_SECONDS: "8",
      // The activities sweep: its round at start, then only on request (the activities spec asks for one), so no
      // background account listing takes a fault a spec injected for the page. Its schedule is then midnight UTC.
      ACTIVITIES_SWEEP_INTERVAL_MS: "86400000",
      // The open-orders sweep: E2E_SWEEP_RATE listing calls a second (a cycle over the demo's accounts within half a
      // minute), and no listing of the accounts after the first (e2e/accounts.spec.ts counts the account listings a view
      // makes).
      ORDERS_SWEEP_RATE: String(E2E_SWEEP_RATE),
      ORDERS_SWEEP_RELIST_MS: "86400000",
      // The status page (e2e/status.spec.ts): evaluated every 2 s over a 20 s window, so an idle module is probed
      // every 5 s and a module's outage shows within about 10 s (a probe, then two evaluations of hysteresis).
      STATUS_EVAL_MS: "2000",
      STATUS_WINDOW_MS: "20000",
      // An incident's "opened" mail waits 10 s, not the production minute (e2e/status.spec.ts reads the mails): longer
      // than the degraded start an outage can have (two evaluations of hysteresis), so the mail names the outage.
      STATUS_MAIL_DEBOUNCE_MS: "10000",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
