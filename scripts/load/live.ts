import { randomBytes } from "node:crypto";
import { Agent } from "undici";
import type { Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { readEvents } from "../../tests/helpers/event-stream";
import { percentile } from "./recorder";

/**
 * Open live connections (`/api/live`, server-sent events) as the pages hold them, and probes of how fast a change
 * reaches all of them: a change notice sent on the database's channel, as the consumer sends one when it stored an
 * order, carrying a probe mark; each connection notes when it hears it.
 */
const agent = new Agent({ connections: 1024, pipelining: 0, bodyTimeout: 0, headersTimeout: 30_000 });

export interface LiveFigures {
  connections: number;
  open: number;
  probes: number;
  /** Deliveries expected (probes × connections open) and heard. */
  expected: number;
  heard: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  dropped: number;
}

export class LiveFleet {
  private readonly streams: { ok: boolean; closed: boolean; abort: AbortController }[] = [];
  private readonly sent = new Map<string, number>();
  private readonly delays: number[] = [];
  private expected = 0;
  private probes = 0;
  private wanted = 0;
  private closing = false;
  dropped = 0;
  reconnects = 0;

  /** `reconnect`: a dropped connection connects again after a second, as the pages' EventSource does. */
  constructor(private readonly reconnect = false) {}

  /** Opens `n` connections spread over `bases` (the instances) and `cookies` (the sessions), waiting until each said ready. */
  async open(n: number, bases: string[], cookies: string[]): Promise<void> {
    this.wanted += n;
    await Promise.all(Array.from({ length: n }, (_, i) => this.connect(bases[i % bases.length], cookies[i % cookies.length])));
  }

  private async connect(base: string, cookie: string): Promise<void> {
    const abort = new AbortController();
    const stream = { ok: false, closed: false, abort };
    this.streams.push(stream);
    const res = await fetch(new URL("/api/live", base), {
      headers: { cookie, accept: "text/event-stream" },
      signal: abort.signal,
      // @ts-expect-error: undici's dispatcher option of Node's fetch
      dispatcher: agent,
    });
    if (res.status !== 200 || !res.body) throw new Error(`live connection: HTTP ${res.status}`);
    let ready = () => undefined as void;
    let failed = (_e: Error) => undefined as void;
    const isReady = new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    void readEvents(res.body, (e) => {
      if (e.event === "ready") {
        stream.ok = true;
        ready();
      } else if (e.event === "change") {
        // A notice may merge several (server/events/live.ts): every probe it names was heard now.
        for (const [, mark] of (e.data ?? "").matchAll(/"(probe-[0-9a-f]+)"/g)) {
          const at = this.sent.get(mark);
          if (at !== undefined) this.delays.push(performance.now() - at);
        }
      }
    }).done.then(() => {
      // Ended: aborted at the end, or dropped (counted here).
      stream.closed = true;
      if (!stream.ok) failed(new Error("live connection: closed before it was ready"));
      if (abort.signal.aborted || this.closing) return;
      this.dropped += 1;
      if (this.reconnect) void this.again(base, cookie);
    });
    await isReady;
  }

  private async again(base: string, cookie: string): Promise<void> {
    while (!this.closing) {
      await new Promise((r) => setTimeout(r, 1_000));
      try {
        await this.connect(base, cookie);
        this.reconnects += 1;
        return;
      } catch {
        // the instance is not back yet: again in a second
      }
    }
  }

  get openCount(): number {
    return this.streams.filter((s) => s.ok && !s.closed).length;
  }

  /** One probe: a change notice every open connection's role may read (orders), marked to be told apart. */
  async probe(db: Engine): Promise<void> {
    const mark = `probe-${randomBytes(6).toString("hex")}`;
    this.expected += this.openCount;
    this.probes += 1;
    this.sent.set(mark, performance.now());
    await notifyChange(db, { topics: ["order"], accounts: [mark] });
  }

  figures(): LiveFigures {
    const d = [...this.delays].sort((a, b) => a - b);
    return {
      connections: this.wanted,
      open: this.openCount,
      probes: this.probes,
      expected: this.expected,
      heard: d.length,
      p50: percentile(d, 50),
      p95: percentile(d, 95),
      p99: percentile(d, 99),
      max: d.at(-1) ?? NaN,
      dropped: this.dropped,
    };
  }

  close() {
    this.closing = true;
    for (const s of this.streams) s.abort.abort();
  }
}
