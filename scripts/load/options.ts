import os from "node:os";

/** The command line of `npm run load` and `npm run soak`: `--name value` options and `--name` flags. */
const args = process.argv.slice(2);
export const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
export const flag = (name: string) => args.includes(`--${name}`);

/** The options of the staff load that both drive; each gives its own default number of live connections and event rate. */
export function staffLoadOptions(defaults: { live: number; eventsRate: number }) {
  return {
    SESSIONS: Number(arg("sessions", "50")),
    LIVE: Number(arg("live", String(defaults.live))),
    THINK_MS: Number(arg("think-ms", "2000")),
    PG_URL: arg("pg", process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"),
    EVENTS_RATE: Number(arg("events-rate", String(defaults.eventsRate))),
  };
}

/** The machine's load average (1, 5 and 15 minutes), for the report's first and last lines. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
