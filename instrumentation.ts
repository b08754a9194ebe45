// Runs once when the server starts, and Next awaits it before serving: a bad configuration stops the server at
// once with the variables named (instead of failing on the first request that reads them), and on the embedded
// defaults the demo staff are seeded before anyone can sign in.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { env } = await import("@/lib/env");
    const e = env();
    const { seedDemoUsersAtStart } = await import("@/server/auth/demo-users");
    await seedDemoUsersAtStart();
    // Pending approval requests expire on read and on decide; the sweep closes the ones nobody opens.
    const { startApprovalExpirySweep } = await import("@/server/approvals/sweep");
    startApprovalExpirySweep();
    // The embedded database (PGlite) belongs to this process, so the event consumer runs here; with a PostgreSQL
    // server it is a process of its own (npm run events, started by npm start).
    if (!e.DATABASE_URL && e.EVENTS_CONSUMER === "auto") {
      const [{ getDb }, { startConfiguredEventService }] = await Promise.all([import("@/server/db"), import("@/server/events/run")]);
      startConfiguredEventService((await getDb()).engine);
    }
  }
}
