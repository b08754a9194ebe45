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
