import os from "node:os";
import { option, pgUrl } from "../args";

/** The options of the staff load that both drive; each gives its own default number of live connections and event rate. */
export function staffLoadOptions(defaults: { live: number; eventsRate: number }) {
  return {
    SESSIONS: Number(option("sessions", "50")),
    LIVE: Number(option("live", String(defaults.live))),
    THINK_MS: Number(option("think-ms", "2000")),
    PG_URL: pgUrl(),
    EVENTS_RATE: Number(option("events-rate", String(defaults.eventsRate))),
  };
}

/** The machine's load average (1, 5 and 15 minutes), for the report's first and last lines. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
