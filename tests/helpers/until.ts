/**
 * Polls `fn` (sync or async) until it returns something truthy, or fails after `ms` naming `what`. The bound is
 * for a failure to end, not a latency to assert: it is generous (the suite runs on 2 busy cores), and how fast a
 * thing happens is a bench's to say.
 */
export async function until<T>(
  fn: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  ms = 20_000,
  what = "condition",
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
