/** Polls `fn` (sync or async) until it returns something truthy, or fails after `ms` naming `what`. */
export async function until<T>(fn: () => T | undefined | false | null | Promise<T | undefined | false | null>, ms = 5000, what = "condition"): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
