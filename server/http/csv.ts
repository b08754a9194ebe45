import "server-only";
import { csvLine } from "@/lib/csv";
import { errorCodeOf, errorResponse } from "./errors";
import { authorizeDownload } from "./audited";
import { parseParams, timed, type RouteContext, type RouteHandler, type RouteSpec } from "./route";

export type CsvValue = string | number | null | undefined;

export interface CsvSpec<P> extends RouteSpec<P> {
  /** Audit action of the export, e.g. "accounts.export". */
  action: string;
  /** File name before the timestamp, e.g. "virtual-accounts" → virtual-accounts-20261123T101500.csv. */
  filename: string;
  columns: readonly string[];
  /** What the audit entry records as the export's filter (default: the parameters). */
  filter?: (params: P) => unknown;
}

const BATCH = 200;

/**
 * A guarded CSV export, streamed, and audited once whatever happens: the entry (action, filter, row count,
 * outcome) is written when the last row has been read (success), when reading fails or the download is cancelled
 * (failure), or at once when the permission is missing (denied) or the first rows cannot be read. The first rows are
 * read before answering, so an upstream failure is a clean JSON error rather than a cut-off file; a requester who
 * leaves meanwhile is a cancelled export too.
 */
export function csvRoute<P = undefined>(spec: CsvSpec<P>, rows: (ctx: RouteContext<P>) => AsyncIterable<CsvValue[]>): RouteHandler {
  return timed(async (request, context) => {
    const auth = await authorizeDownload(request, spec.action, spec.permission);
    if ("response" in auth) return auth.response;
    const { staff, audit } = auth;
    let filter: unknown;
    let count = 0;
    let iterator: AsyncIterator<CsvValue[]> | undefined;
    let first: IteratorResult<CsvValue[]>;
    let ended = false;
    const end = async (outcome: "success" | "failure", errorCode?: string, input: unknown = { filter, rows: count }) => {
      if (ended) return;
      ended = true;
      await audit(staff, { input, outcome, errorCode });
    };
    // The requester left: cancelled wherever the export stands. Heard from the start, for one that leaves while the
    // first rows are read gets no answer that anything reads or cancels.
    const left = () =>
      void end("failure", "CANCELLED")
        .then(() => iterator?.return?.())
        .catch(() => undefined);
    request.signal.addEventListener("abort", left, { once: true });
    // Gone already (while the session was checked), or while the first rows were read: nobody reads an answer.
    const gone = () => new Response(null, { status: 499 });
    if (request.signal.aborted) return (left(), gone());
    try {
      const params = parseParams(spec.params, request, (await context?.params) ?? {});
      filter = spec.filter ? spec.filter(params) : params;
      iterator = rows({ staff, params, request })[Symbol.asyncIterator]();
      first = await iterator.next();
    } catch (error) {
      await end("failure", errorCodeOf(error), { filter });
      return errorResponse(error);
    }
    if (ended) return gone();
    const rowsOf = iterator;

    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // The byte order mark first: without it spreadsheet programs read UTF-8 as a legacy code page ("MÃ¼ller").
        controller.enqueue(encoder.encode(`\uFEFF${csvLine([...spec.columns])}`));
      },
      async pull(controller) {
        try {
          let text = "";
          // A batch of rows per pull keeps the stream moving without one enqueue per row.
          for (let i = 0; i < BATCH && !first.done; i++) {
            text += csvLine(first.value);
            count++;
            first = await rowsOf.next();
          }
          if (text) controller.enqueue(encoder.encode(text));
          if (first.done) {
            await end("success"); // before the file ends: whoever has the file finds the export on the record
            controller.close();
          }
        } catch (error) {
          await end("failure", errorCodeOf(error)).catch(() => undefined);
          controller.error(error);
        }
      },
      async cancel() {
        await end("failure", "CANCELLED");
        await rowsOf.return?.();
      },
    });
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "");
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${spec.filename}-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    });
  });
}
