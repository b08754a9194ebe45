/** Request times and errors by name (a page, a data route, an action), and the table `npm run load` prints of them. */
export interface Figures {
  name: string;
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  /** The server's own time (its `Server-Timing: app;dur=`), where it answers with one: count, p50, p95, p99. */
  server: { count: number; p50: number; p95: number; p99: number };
  /** The first few distinct error messages. */
  examples: string[];
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export class Recorder {
  private readonly times = new Map<string, number[]>();
  private readonly serverTimes = new Map<string, number[]>();
  private readonly errors = new Map<string, string[]>();
  /** Every error with its time (Date.now()), for a soak's report by fault window. */
  readonly log: { at: number; name: string; error: string }[] = [];
  /** While false, nothing is kept (the warm-up). */
  on = true;

  /** A request's time to the whole answer, and the server's own time when the answer gave it. */
  add(name: string, ms: number, error?: string, serverMs?: number) {
    if (!this.on) return;
    push(this.times, name, ms);
    if (serverMs !== undefined) push(this.serverTimes, name, serverMs);
    if (error) this.fail(name, error);
  }

  /** An error that is not one request's (e.g. an action that answered ok: false), counted under `name`. */
  fail(name: string, error: string) {
    if (!this.on) return;
    if (!this.errors.has(name)) this.errors.set(name, []);
    this.errors.get(name)!.push(error);
    this.log.push({ at: Date.now(), name, error });
  }

  figures(): Figures[] {
    return [...new Set([...this.times.keys(), ...this.errors.keys()])].sort().map((name) => {
      const t = [...(this.times.get(name) ?? [])].sort((a, b) => a - b);
      const st = [...(this.serverTimes.get(name) ?? [])].sort((a, b) => a - b);
      const e = this.errors.get(name) ?? [];
      return {
        name,
        requests: t.length,
        errors: e.length,
        p50: percentile(t, 50),
        p95: percentile(t, 95),
        p99: percentile(t, 99),
        server: { count: st.length, p50: percentile(st, 50), p95: percentile(st, 95), p99: percentile(st, 99) },
        examples: [...new Set(e)].slice(0, 3),
      };
    });
  }

  /** Every kept time of the names `match` accepts, sorted: to the whole answer, or (`server`) the server's own. */
  allTimes(match: (name: string) => boolean, kind: "answer" | "server" = "answer"): number[] {
    return [...(kind === "server" ? this.serverTimes : this.times)]
      .filter(([name]) => match(name))
      .flatMap(([, t]) => t)
      .sort((a, b) => a - b);
  }

  get totalErrors(): number {
    return [...this.errors.values()].reduce((n, e) => n + e.length, 0);
  }
}

function push(map: Map<string, number[]>, name: string, value: number) {
  const list = map.get(name);
  if (list) list.push(value);
  else map.set(name, [value]);
}

/** The server's own time of an answer, from its `Server-Timing: app;dur=<ms>` header (server/http's `timed`). */
export function serverTime(headers: Headers): number | undefined {
  const m = /(?:^|,)\s*app;dur=([\d.]+)/.exec(headers.get("server-timing") ?? "");
  return m ? Number(m[1]) : undefined;
}

/** A plain text table: the first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 1 : 0) : "—");
