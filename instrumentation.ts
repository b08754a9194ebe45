// Runs once when the server starts: a bad configuration stops it at once with the variables named,
// instead of failing on the first request that reads them.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { env } = await import("@/lib/env");
    env();
  }
}
