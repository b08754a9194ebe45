import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Server modules mark themselves server-only; tests run them in plain Node.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    environment: "node",
    // A fixed app secret: secrets sealed under it (server/secrets/seal.ts) open the same way in every run.
    env: { AUTH_SECRET: "vitest-only-auth-secret-0123456789abcdef" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Worker threads, three files at a time. Most files wait on a sandbox, PGlite or the PostgreSQL server rather than
    // compute: with two files at a time the machine's two cores stood idle a third of the run (vmstat), and a process
    // forked for each file cost more than a thread. Measured on the whole suite, 2 cores: forks × 2 711 s, threads × 2
    // 541 s, threads × 3 494 s with the cores busy throughout. Each file opens its own sandbox, databases and ports.
    pool: "threads",
    maxWorkers: 3,
  },
});
