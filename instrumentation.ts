// Runs once when the server starts, and Next awaits it before serving: a bad configuration stops the server at
// once with the variables named (instead of failing on the first request that reads them), and on the embedded
// defaults the demo staff are seeded before anyone can sign in.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { env } = await import("@/lib/env");
    const e = env();
    const { seedDemoUsersAtStart } = await import("@/server/auth/demo-users");
    await seedDemoUsersAtStart();
    // The embedded database (PGlite) belongs to this process, so the event consumer and the job system (sweep,
    // backfill, reconciliation, order details, surveillance, approval expiry) run here; with a PostgreSQL server they
    // are a process of their own (npm run events, started by npm start), and this one only sends jobs.
    if (!e.DATABASE_URL && e.EVENTS_CONSUMER === "auto") {
      const [{ getDb }, { startConfiguredEventService }, { startConfiguredJobs }] = await Promise.all([
        import("@/server/db"),
        import("@/server/events/run"),
        import("@/server/jobs/run"),
      ]);
      const db = await getDb();
      startConfiguredEventService(db.engine);
      await startConfiguredJobs(db);
    }
    const [{ getDb }, { runDemoFirstDay }, { shareAccountReads }] = await Promise.all([
      import("@/server/db"),
      import("@/server/demo/first-day"),
      import("@/server/accounts/shared-reads"),
    ]);
    // Staff reading the same accounts at once share one upstream call, dropped on every account change notice.
    void getDb()
      .then((db) => shareAccountReads(db.engine))
      .catch((err) => console.error("account reads are not shared: the change notices could not be heard", err));
    // On the embedded defaults, the demo desk's first morning: a few movements through the desk's own actions, once
    // a database (server/demo/first-day.ts); in the background, so serving does not wait for it.
    void getDb()
      .then(runDemoFirstDay)
      .catch((err) => console.error("the demo's first morning failed", err));
  }
}
