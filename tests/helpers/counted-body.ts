/**
 * A request body for the byte caps' tests (server/http/body.ts): `total` bytes of `fill` in 64 KiB chunks, made only
 * as they are read (nothing is pulled before a read), that fails the read once more than `failPast` bytes were given
 * out; `seen.pulled` says how much was.
 */
export const CHUNK = 64 * 1024;

export function countedBody(o: { total: number; failPast: number; fill?: number }) {
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled > o.failPast) throw new Error(`the body was read past ${o.failPast} bytes`);
        if (seen.pulled >= o.total) return controller.close();
        const size = Math.min(CHUNK, o.total - seen.pulled);
        seen.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(o.fill ?? 0x20));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** A POST of `url` with a streamed body (Node's fetch wants `duplex` for one). */
export const streamedPost = (url: string, headers: HeadersInit, body: ReadableStream<Uint8Array>) =>
  new Request(url, { method: "POST", headers, body, duplex: "half" } as RequestInit);
