import { runsPage, type RunsPage, type RunsQuery } from "@/lib/schemas/runs";
import "server-only";
import { zipSync } from "fflate";
import { csvLine } from "@/lib/csv";
import { NotFoundError, runFailureMessage } from "@/lib/errors";
import type { StatementPeriod, StatementRun } from "@/lib/schemas/statements";
import { errorText } from "@/server/broker/errors";
import type { Engine, Queryable } from "@/server/db/engine";
import { workOpenRuns } from "@/server/jobs/open-runs";
import { notifyChange } from "@/server/notices/channel";
import { STATEMENT_CSV_COLUMNS, statementCsvRows } from "./csv";
import { statementName } from "./documents";
import { statementPdf } from "./pdf";
import {
  failRun,
  finishRun,
  insertRun,
  insertRunFiles,
  selectAccountState,
  selectRun,
  selectRunAccounts,
  selectRunFiles,
  selectOpenRunCount,
  selectRunZip,
  selectRuns,
  startOldestOpenRun,
  type RunRow,
} from "./queries";
import { accountStatement } from "./statement";

/**
 * Every account's statement of a period in one zip (the `statements` job). A run is a row (statement_runs) that the
 * job works through account by account, in account id order: each account's PDF and CSV are written with the cursor
 * past it in one transaction, so a run cut short (its slice ended, the process died) resumes after its last account.
 * When the last account is done the files become one zip, kept in the run's row (a few kilobytes an account: the
 * database serves it to every app instance and goes with the backups), and the files are dropped. Each step sends the
 * `statements` notice, which the bulk page's progress reads again on.
 */
export const STATEMENTS_TOPIC = "statements";
const BATCH = 20;

const view = (r: RunRow): StatementRun => ({
  id: Number(r.id),
  from: r.period_from,
  to: r.period_to,
  status: r.status,
  requestedBy: r.requested_by,
  requestedAt: new Date(r.requested_at).toISOString(),
  finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  total: r.total === null ? null : Number(r.total),
  done: Number(r.done),
  zipBytes: r.zip_bytes === null ? null : Number(r.zip_bytes),
  lastError: r.last_error,
});

const notify = (q: Queryable) => notifyChange(q, { topics: [STATEMENTS_TOPIC], accounts: [] });

export async function requestStatementRun(engine: Engine, period: StatementPeriod, by: string): Promise<StatementRun> {
  const run = await insertRun(engine, period.from, period.to, by);
  await notify(engine);
  return view(run);
}

export async function hasOpenStatementRun(q: Queryable): Promise<boolean> {
  return (await selectOpenRunCount(q)) > 0;
}

/** A page of the runs, newest first: the latest, or those older than `before`. */
export async function listStatementRuns(q: Queryable, { before, limit = 20 }: RunsQuery = {}): Promise<RunsPage<StatementRun>> {
  return runsPage((await selectRuns(q, limit + 1, before)).map(view), limit);
}

export async function statementRunZip(q: Queryable, id: number): Promise<{ body: Uint8Array; contentType: string; filename: string }> {
  const [run, zip] = await Promise.all([selectRun(q, id), selectRunZip(q, id)]);
  if (!run || !zip) throw new NotFoundError("This run has no zip: it is unknown or not finished.");
  return { body: zip, contentType: "application/zip", filename: `statements-${run.period_from}-to-${run.period_to}.zip` };
}

/** One account's files of a run: the statement as PDF and as CSV. */
async function accountFiles(q: Queryable, accountId: string, period: StatementPeriod) {
  const [statement, state] = await Promise.all([accountStatement(q, accountId, period), selectAccountState(q, accountId)]);
  const base = statementName(state.account_number ?? accountId, period);
  const csv = `\uFEFF${csvLine([...STATEMENT_CSV_COLUMNS])}${statementCsvRows(statement).map(csvLine).join("")}`;
  return [
    { name: `${base}.pdf`, body: new Uint8Array(await statementPdf(statement)) },
    { name: `${base}.csv`, body: new TextEncoder().encode(csv) },
  ];
}

async function work(engine: Engine, run: RunRow, signal: AbortSignal): Promise<"done" | "stopped"> {
  const period = { from: run.period_from, to: run.period_to };
  let cursor = run.cursor;
  for (;;) {
    const accounts = await selectRunAccounts(engine, cursor, BATCH);
    if (!accounts.length) break;
    for (const accountId of accounts) {
      if (signal.aborted) return "stopped";
      const files = await accountFiles(engine, accountId, period);
      await engine.transaction((tx) => insertRunFiles(tx, run.id, files, accountId));
      cursor = accountId;
      await notify(engine);
    }
  }
  const files = await selectRunFiles(engine, run.id);
  const zip = zipSync(Object.fromEntries(files.map((f) => [f.name, f.body])), { level: 6 });
  await engine.transaction(async (tx) => {
    await finishRun(tx, run.id, zip);
    await notify(tx);
  });
  return "done";
}

/** The job's run: the open runs oldest first until none is left or the slice ends (`again`: resume from the cursor). */
export function runStatementRuns(
  engine: Engine,
  signal: AbortSignal,
  log: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void,
): Promise<{ again: boolean; runs: number }> {
  return workOpenRuns(signal, {
    start: () => startOldestOpenRun(engine),
    work: (run) => work(engine, run, signal),
    // The log has the error; the run's row (served to staff) only its safe message.
    fail: (run, error) => {
      log("error", "statement run failed", { runId: run.id, err: errorText(error) });
      return failRun(engine, run.id, runFailureMessage(error));
    },
    notify: () => notify(engine),
    afterFailure: "next",
  });
}
