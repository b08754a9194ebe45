/** One server-sent event as the live channel writes it (server/events/live.ts): its `event:` name and its `data:` line. */
export interface StreamEvent {
  event?: string;
  data?: string;
}

/**
 * Reads a server-sent event stream in the background (for the tests, the e2e specs and the load driver), handing each
 * event to `on` as it completes: an event ends at a blank line, and a chunk may hold several or part of one. `done`
 * settles when the body ends or a read fails (aborted, cancelled, the server gone); it rejects only when `on` throws.
 * `cancel` cancels the body, as a browser's leaving tab does (aborting a Request's signal does not reliably: undici's
 * Request follows its init signal through a weakly held controller, so under memory pressure the abort may never
 * reach the route).
 */
export function readEvents(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  on: (e: StreamEvent) => void,
): { done: Promise<void>; cancel: () => Promise<void> } {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const done = (async () => {
    let buffer = "";
    for (;;) {
      const { value, done: ended } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (ended) return;
      buffer += value;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        on({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] });
      }
    }
  })();
  return { done, cancel: () => reader.cancel() };
}
