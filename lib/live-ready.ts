/**
 * The live channel's first event (server/events/live.ts): the reader's topics, and what of them the serving process
 * heard before the channel subscribed, as durations before the event was sent (no clock is shared with the browser).
 */
export interface LiveReady {
  topics: string[];
  /** How long the process has listened for change notices without a break (0: not listening yet). */
  listeningMs: number;
  /** How long ago it last heard each topic, for the topics it heard. */
  ago: Record<string, number>;
  /** The server's clock as the event was sent (ms since the epoch), to compare with a page's `readAt` (same clock). */
  now: number;
}

/**
 * The topics a reader reads again when its channel says ready, its data read at most `readMs` ago (the browser: since
 * the page's navigation began). After a gap in the channel (`missed`), or from a process that has listened for less
 * time than that, every topic: what was sent meanwhile is unknown. Otherwise the topics heard since the reader read.
 */
export function topicsToReadAgain(ready: LiveReady, readMs: number, missed: boolean): string[] {
  if (missed || ready.listeningMs < readMs) return ready.topics;
  return ready.topics.filter((t) => ready.ago[t] !== undefined && ready.ago[t] <= readMs);
}

/**
 * When each of the reader's topics may last have changed, by the server's clock, as its channel's ready tells: after a
 * gap in the channel (`missed`), now; otherwise when the process last heard the topic, or when it began to listen
 * if later (a change before that is unknown).
 */
export function heardAtReady(ready: LiveReady, missed: boolean): Record<string, number> {
  const listening = ready.now - ready.listeningMs;
  const at: Record<string, number> = {};
  for (const t of ready.topics) {
    at[t] = missed ? ready.now : Math.max(listening, ready.ago[t] === undefined ? -Infinity : ready.now - ready.ago[t]);
  }
  return at;
}

/**
 * A tab's record of when each topic last changed (the server's clock: notices' `at`, the ready's times), so that data
 * read on the server at `readAt` and shown later (a page arriving after the notice) knows it may be behind.
 */
export class HeardLog {
  private readonly at = new Map<string, number>();

  hear(topics: Iterable<string>, at: number): void {
    for (const t of topics) this.at.set(t, Math.max(this.at.get(t) ?? -Infinity, at));
  }

  /** Whether any of `topics` may have changed at or after `readAt` (a notice at the same millisecond counts). */
  changedSince(topics: readonly string[], readAt: number): boolean {
    return topics.some((t) => (this.at.get(t) ?? -Infinity) >= readAt);
  }
}
