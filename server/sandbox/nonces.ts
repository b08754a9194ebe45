import "server-only";

/**
 * Nonces seen within the clock-skew window. In memory: a nonce only matters while its timestamp is still
 * acceptable (±5 min), and a restart takes longer to matter than that window in practice.
 */
export class NonceStore {
  private seen = new Map<string, number>();
  private lastSweep = 0;

  constructor(private windowMs: number) {}

  /** Records the nonce; returns false when it was already used inside the window. */
  use(key: string, nowMs: number): boolean {
    this.sweep(nowMs);
    const until = this.seen.get(key);
    if (until !== undefined && until > nowMs) return false;
    // Keep it for twice the window: a timestamp up to +5 min ahead stays valid until 10 min from now.
    this.seen.set(key, nowMs + 2 * this.windowMs);
    return true;
  }

  private sweep(nowMs: number) {
    if (nowMs - this.lastSweep < 10_000) return;
    this.lastSweep = nowMs;
    for (const [k, until] of this.seen) if (until <= nowMs) this.seen.delete(k);
  }
}
