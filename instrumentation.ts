// Runs once when the server starts: a bad configuration stops it at once with the variables named,
// instead of failing on the first request that reads them.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { env } = await import("@/lib/env");
    const e = env();
    // The embedded database (PGlite) belongs to this process, so the event consumer runs here; with a PostgreSQL
    // server it is a process of its own (npm run events, started by npm start).
    if (!e.DATABASE_URL && e.EVENTS_CONSUMER === "auto") {
      const [{ getDb }, { startConfiguredEventService }] = await Promise.all([import("@/server/db"), import("@/server/events/run")]);
      startConfiguredEventService((await getDb()).engine);
    }
  }
}
