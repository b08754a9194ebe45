// Runs once when the server starts, and Next awaits it before serving: a bad configuration stops the server at
// once with the variables named (instead of failing on the first request that reads them), and on the embedded
// defaults the demo staff are seeded before anyone can sign in.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { env } = await import("@/lib/env");
    env();
    const { seedDemoUsersAtStart } = await import("@/server/auth/demo-users");
    await seedDemoUsersAtStart();
  }
}
