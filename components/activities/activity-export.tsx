"use client";
import { useRef, useState } from "react";

type ExportState =
  | { phase: "idle" }
  | { phase: "running"; rows: number }
  | { phase: "done"; rows: number; file: string }
  | { phase: "failed"; message: string };

const LF = 10;

/** Lines in a chunk of the CSV (each row ends with CRLF; a quoted value with a line break counts once more). */
function lines(chunk: Uint8Array): number {
  let n = 0;
  for (const byte of chunk) if (byte === LF) n++;
  return n;
}

const filenameOf = (res: Response) => /filename="?([^";]+)"?/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "activities.csv";

/**
 * The CSV export of the filter with its progress: the file is read as the server streams it, rows counted against
 * the filter's total, then saved. Cancel stops the download (the server stops reading).
 */
export function ActivityExport({ url, expected }: { url: string; expected: number | undefined }) {
  const [state, setState] = useState<ExportState>({ phase: "idle" });
  const abort = useRef<AbortController | null>(null);

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ phase: "running", rows: 0 });
    try {
      const res = await fetch(url, { signal: controller.signal, cache: "no-store" });
      if (!res.ok || !res.body) {
        // The route's error body (server/http/errors.ts): `{ error: code, message }`, the message safe to show.
        const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
        throw new Error(typeof body?.message === "string" && body.message ? body.message : `The export failed (HTTP ${res.status}).`);
      }
      const reader = res.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let count = -1; // the header line
      let shown = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        count += lines(value);
        // A render per ~1% at most: a 50,000-row file arrives in many small chunks.
        if (count - shown >= Math.max(200, (expected ?? 0) / 100)) {
          shown = count;
          setState({ phase: "running", rows: count });
        }
      }
      const file = filenameOf(res);
      const href = URL.createObjectURL(new Blob(chunks, { type: "text/csv;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = href;
      a.download = file;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
      setState({ phase: "done", rows: Math.max(count, 0), file });
    } catch (e) {
      setState(controller.signal.aborted ? { phase: "idle" } : { phase: "failed", message: (e as Error).message || "The export failed." });
    } finally {
      abort.current = null;
    }
  }

  const n = (v: number) => v.toLocaleString("en-US");
  return (
    <div className="flex items-center gap-2 text-xs" data-testid="activity-export">
      {state.phase === "running" ? (
        <>
          <progress
            className="h-2 w-40 accent-blue-700"
            aria-label="Export progress"
            max={expected || undefined}
            value={expected ? Math.min(state.rows, expected) : undefined}
          />
          <span className="tabular-nums text-slate-700" role="status">
            {n(state.rows)}
            {expected ? ` of ${n(expected)}` : ""} rows…
          </span>
          <button
            type="button"
            className="h-7 rounded border border-slate-300 bg-white px-2 hover:bg-slate-100"
            onClick={() => abort.current?.abort()}
          >
            Cancel
          </button>
        </>
      ) : (
        <>
          {state.phase === "done" ? (
            <span className="text-green-800" role="status">
              Exported {n(state.rows)} rows to {state.file}
            </span>
          ) : null}
          {state.phase === "failed" ? (
            <span className="text-red-700" role="alert">
              {state.message}
            </span>
          ) : null}
          <button
            type="button"
            onClick={() => void run()}
            className="h-7 rounded border border-slate-300 bg-white px-3 hover:bg-slate-100"
            title="Every activity of the filter in the desk's copy"
          >
            Export CSV
          </button>
        </>
      )}
    </div>
  );
}
