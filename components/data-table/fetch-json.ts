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

/** Client-side reads go to the app's GET route handlers (never to server actions). */
export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { accept: "application/json" }, cache: "no-store" });
  } catch {
    throw new FetchError(0, "The server could not be reached. Check your connection and retry.");
  }
  const body = (await res.json().catch(() => undefined)) as { error?: string; message?: string; requestId?: string } | undefined;
  if (!res.ok) {
    const message = body?.message ?? (res.status === 401 ? "Your session has ended. Sign in again." : `The request failed (HTTP ${res.status}).`);
    throw new FetchError(res.status, message, body?.error, body?.requestId);
  }
  return body as T;
}
