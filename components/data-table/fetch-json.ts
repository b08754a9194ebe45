/** Error of a GET route handler, with the safe message the handler chose and the upstream request id. */
export class FetchError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

/**
 * How long a read may take before the table shows an error with a Retry instead of the previous rows, dimmed. The
 * server's own upstream calls retry a slow or unreachable upstream for longer than a person waits (a timeout per
 * attempt, several attempts); the route handler stops them when this request is abandoned.
 */
export const READ_DEADLINE_MS = 15_000;

export const DEADLINE_MESSAGE = "The upstream did not answer in time. Retry in a moment.";

/** Client-side reads go to the app's GET route handlers (never to server actions). */
export async function fetchJson<T>(
  url: string,
  signal?: AbortSignal,
  { deadlineMs = READ_DEADLINE_MS }: { deadlineMs?: number } = {},
): Promise<T> {
  const deadline = AbortSignal.timeout(deadlineMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const timedOut = () => deadline.aborted && !signal?.aborted;
  let res: Response;
  try {
    res = await fetch(url, { signal: combined, headers: { accept: "application/json" }, cache: "no-store" });
  } catch {
    if (timedOut()) throw new FetchError(0, DEADLINE_MESSAGE, "TIMEOUT");
    throw new FetchError(0, "The server could not be reached. Check your connection and retry.");
  }
  const body = (await res.json().catch(() => undefined)) as { error?: string; message?: string; requestId?: string } | undefined;
  if (timedOut()) throw new FetchError(0, DEADLINE_MESSAGE, "TIMEOUT");
  if (!res.ok) {
    const message =
      body?.message ?? (res.status === 401 ? "Your session has ended. Sign in again." : `The request failed (HTTP ${res.status}).`);
    throw new FetchError(res.status, message, body?.error, body?.requestId);
  }
  return body as T;
}
