import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FetchError, fetchJson } from "@/components/data-table/fetch-json";

/**
 * The tables' reads when an app instance dies while answering: the answer's headers are out and its body is cut.
 * The balancer cannot send that request elsewhere, so the read itself sends it once more; a cut answer is never data.
 */
let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A server whose n-th request (from 1) `cut(n)` decides: true cuts the body after its first bytes. */
async function serve(cut: (n: number) => boolean): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  server = http.createServer((_req, res) => {
    n += 1;
    const body = JSON.stringify({ rows: [{ id: "1", note: "x".repeat(2_000) }] });
    res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
    if (cut(n)) {
      res.write(body.slice(0, 100));
      setTimeout(() => res.socket?.destroy(), 20);
    } else res.end(body);
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/rows`, requests: () => n };
}

describe("fetchJson", () => {
  it("reads again, once, when the answer's body is cut: the rows come from the second answer", async () => {
    const s = await serve((n) => n === 1);
    const data = await fetchJson<{ rows: { id: string }[] }>(s.url);
    expect(data.rows.map((r) => r.id)).toEqual(["1"]);
    expect(s.requests()).toBe(2);
  });

  it("an answer cut twice is an error the table shows, not undefined data", async () => {
    const s = await serve(() => true);
    await expect(fetchJson(s.url)).rejects.toBeInstanceOf(FetchError);
    expect(s.requests()).toBe(2);
  });

  it("a complete answer is read once", async () => {
    const s = await serve(() => false);
    await fetchJson(s.url);
    expect(s.requests()).toBe(1);
  });
});
