import "server-only";
import { sleep } from "@/server/timing";
import { startConsumer, type ConsumerHandle, type ConsumerOptions } from "./consumer";
import { reconnectRequested } from "./queries/stream";

/**
 * The event service: the consumer, and while it leads, the page's reconnect request, which reaches it through the
 * `event_stream` row so that it works across processes. The background work (sweep, backfill, reconciliation, order
 * details, surveillance) is the job system's (server/jobs).
 */
export type EventServiceOptions = Omit<ConsumerOptions, "onLead"> & {
  /** How often the leader looks for a reconnect request (default 1 s). */
  requestPollMs?: number;
};

export function startEventService(o: EventServiceOptions): ConsumerHandle {
  // Set once startConsumer returns; the request check only runs on leadership, after that.
  const consumer: { handle?: ConsumerHandle } = {};
  const onLead = (signal: AbortSignal) => {
    void (async () => {
      while (!signal.aborted) {
        // A request is pending while it is newer than the current connection.
        if (await reconnectRequested(o.engine).catch(() => false)) consumer.handle?.reconnect("reconnect requested");
        await sleep(o.requestPollMs ?? 1_000, signal);
      }
    })();
  };
  consumer.handle = startConsumer({ ...o, onLead });
  return consumer.handle;
}
