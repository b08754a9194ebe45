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

/**
 * Client-side reads go to the app's GET route handlers (never to server actions). A read whose connection failed,
 * before the answer or in the middle of its body (an app instance that died while answering: the balancer cannot
 * send a half-sent answer elsewhere), is sent once more: a GET changes nothing, and the balancer gives the second to
 * a living instance. An answer that is still cut is an error, never data.
 */
export async function fetchJson<T>(
  url: string,
  signal?: AbortSignal,
  { deadlineMs = READ_DEADLINE_MS }: { deadlineMs?: number } = {},
): Promise<T> {
  const deadline = AbortSignal.timeout(deadlineMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const timedOut = () => deadline.aborted && !signal?.aborted;
  const read = async () => {
    const res = await fetch(url, { signal: combined, headers: { accept: "application/json" }, cache: "no-store" });
    return { res, text: await res.text() };
  };
  let answer: { res: Response; text: string };
  try {
    answer = await read().catch((error: unknown) => {
      if (combined.aborted) throw error;
      return read();
    });
  } catch {
    if (timedOut()) throw new FetchError(0, DEADLINE_MESSAGE, "TIMEOUT");
    throw new FetchError(0, "The server could not be reached. Check your connection and retry.");
  }
  const { res, text } = answer;
  let body: { error?: string; message?: string; requestId?: string } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    if (res.ok) throw new FetchError(0, "The server's answer was cut off. Retry.");
  }
  if (!res.ok) {
    const message =
      body?.message ?? (res.status === 401 ? "Your session has ended. Sign in again." : `The request failed (HTTP ${res.status}).`);
    throw new FetchError(res.status, message, body?.error, body?.requestId);
  }
  return body as T;
}
