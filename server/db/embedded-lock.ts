import "server-only";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

/**
 * The embedded database (PGlite) has one user at a time: a command that opens it must not run beside the app.
 * Exits with a message when the app's pid file names a live process.
 */
export function exitIfEmbeddedDbInUse(): void {
  const e = env();
  if (e.DATABASE_URL) return;
  const pidFile = path.resolve(e.BROKERDESK_DATA_DIR, "app.pid");
  if (!fs.existsSync(pidFile)) return;
  try {
    process.kill(Number(fs.readFileSync(pidFile, "utf8")), 0);
  } catch {
    return; // a stale pid file
  }
  console.error("Brokerdesk is running on the embedded database; stop it first (the embedded database has one user at a time).");
  process.exit(1);
}
