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
    pool: "forks",
    // Two files at a time (Vitest's default on a 2-core machine is one): most files wait on a sandbox, PGlite or the
    // PostgreSQL server rather than compute, and each file opens its own sandbox, databases and ports.
    maxWorkers: 2,
  },
});
