import "server-only";
import { AppError, NotFoundError, runFailureMessage } from "@/lib/errors";
import { REPORT_KIND_LABELS, REPORTS_TOPIC, type ReportKind, type ReportRun } from "@/lib/schemas/reports";
import { runsPage, type RunsPage, type RunsQuery } from "@/lib/schemas/runs";
import { errorText } from "@/server/broker/errors";
import type { Engine, Queryable } from "@/server/db/engine";
import type { FileBody } from "@/server/http";
import { notifyChange } from "@/server/notices/channel";
import {
  countOpenRuns,
  failRunRow,
  finishRunWithMails,
  insertRunOnce,
  selectLastScheduledSlots,
  selectRunFile,
  selectRuns,
  selectSchedule,
  selectSchedules,
  startOldestRun,
  type RunRow,
} from "./queries";
import { renderReport } from "./render";
import { reportRecipients } from "./schedules";
import { dueSlots, reportDayOf } from "./slots";

/**
 * The `reports` job (server/jobs), every minute: queue a run for each slot of an enabled schedule that has passed
 * since it was made, edited or enabled and since its latest scheduled run (a desk that was down catches up, at most
 * CATCH_UP_SLOTS a schedule, oldest first; at most one run a slot: the unique index, so two instances or two job runs
 * queue it once), then work the queued runs oldest first: render the file from the books, and in one statement
 * keep the file, queue one outbox mail per recipient who is still enabled staff and mark the run done. The status
 * mail's outbox job sends the mails (claim, send, back off); the page's "sent" is every mail of the run gone.
 * "Run now" queues a run for the moment it was asked (server/actions/reports.ts).
 */
export interface ReportsDeps {
  engine: Engine;
  now?: () => Date;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

/** A run left running this long (its process died) is taken again. */
const STALE_MS = 10 * 60_000;

const notify = (q: Queryable) => notifyChange(q, { topics: [REPORTS_TOPIC], accounts: [] });

/** Slots a schedule missed (the desk was down) that are still run, oldest first; a longer gap keeps the latest. */
export const CATCH_UP_SLOTS = 7;

/** Queues the due schedules' runs, missed slots included, oldest first; answers how many this call queued. */
export async function queueDueRuns(engine: Engine, now: Date): Promise<number> {
  let queued = 0;
  const last = await selectLastScheduledSlots(engine);
  for (const s of await selectSchedules(engine)) {
    if (!s.enabled) continue;
    for (const slot of dueSlots(s, now, new Date(s.activeFrom), last.get(s.id) ?? null, CATCH_UP_SLOTS))
      if (await insertRunOnce(engine, s, slot, reportDayOf(slot), "schedule", null)) queued++;
  }
  if (queued) await notify(engine);
  return queued;
}

/** "Run now": a run of the schedule for this moment, reporting on the day before. */
export async function requestReportRun(engine: Engine, scheduleId: number, by: string, now = new Date()): Promise<{ id: number }> {
  const s = await selectSchedule(engine, scheduleId);
  if (!s) throw new NotFoundError("This schedule no longer exists.");
  const run = await insertRunOnce(engine, s, now, reportDayOf(now), "request", by);
  if (!run) throw new AppError("CONFLICT", "A run was asked for this moment already.");
  await notify(engine);
  return { id: Number(run.id) };
}

export const hasOpenReportRun = async (q: Engine) => (await countOpenRuns(q)) > 0;

async function work(d: ReportsDeps, run: RunRow, now: Date): Promise<void> {
  const kind = run.kind as ReportKind;
  const s = run.scheduleId ? await selectSchedule(d.engine, Number(run.scheduleId)) : undefined;
  if (!s) throw new AppError("REPORT_FAILED", "The schedule was deleted before its run.");
  // As they are now: a recipient disabled, or whose role no longer reads the report, gets none.
  const { allowed: recipients } = await reportRecipients(d.engine, kind, s.recipients);
  if (!recipients.length) throw new AppError("REPORT_FAILED", "None of the recipients is enabled staff whose role reads this report any more.");
  const report = await renderReport(d.engine, { kind, format: s.format, name: run.scheduleName }, run.reportDay, now);
  const label = REPORT_KIND_LABELS[kind] ?? run.kind;
  const body = [
    `${label} for ${run.reportDay} (UTC day), from the schedule "${run.scheduleName}".`,
    "",
    ...report.summary.map(([k, v]) => `${k}: ${v}`),
    `Rows: ${report.rows}`,
    "",
    `Attached: ${report.fileName}`,
    "",
    "--",
    "Brokerdesk scheduled reports (Admin → Reports).",
  ].join("\n");
  await finishRunWithMails(
    d.engine,
    run.id,
    report.rows,
    recipients,
    {
      subject: `[Brokerdesk report] ${run.scheduleName}: ${label} ${run.reportDay}`,
      body: `${body}\n`,
      file: { name: report.fileName, contentType: report.contentType, content: report.content },
    },
    now,
  );
}

/** The job's run: queue what is due, then work the queued runs until none is left or the slice ends. */
export async function runReports(d: ReportsDeps, signal: AbortSignal): Promise<{ again: boolean; queued: number; runs: number }> {
  const now = d.now ?? (() => new Date());
  const queued = await queueDueRuns(d.engine, now());
  let runs = 0;
  for (;;) {
    if (signal.aborted) return { again: true, queued, runs };
    const run = await startOldestRun(d.engine, now(), STALE_MS);
    if (!run) return { again: false, queued, runs };
    try {
      await work(d, run, now());
      runs++;
    } catch (error) {
      // The log has the error; the run's row (served on Admin → Reports) only its safe message.
      d.log?.("error", "report run failed", { runId: run.id, err: errorText(error) });
      await failRunRow(d.engine, run.id, runFailureMessage(error), now());
    }
    await notify(d.engine);
  }
}

const view = (r: RunRow): ReportRun => {
  const mailing = r.status === "done" && r.mailsSent < r.mails;
  return {
    id: Number(r.id),
    scheduleId: r.scheduleId === null ? null : Number(r.scheduleId),
    scheduleName: r.scheduleName,
    kind: r.kind,
    format: r.format,
    slot: new Date(r.slot).toISOString(),
    reportDay: r.reportDay,
    trigger: r.trigger,
    requestedBy: r.requestedBy,
    status: r.status === "done" ? (mailing ? (r.mailsFailing > 0 ? "failed" : "mailing") : "sent") : r.status,
    rows: r.rowCount === null ? null : Number(r.rowCount),
    recipients: r.recipients,
    mailsSent: Number(r.mailsSent),
    fileName: r.fileName,
    error: r.lastError ?? (mailing && r.mailsFailing > 0 ? "The SMTP server refused a mail; the outbox keeps trying." : null),
    finishedAt: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
  };
};

/** A page of the run history, newest first: the latest runs, or those older than `before`. */
export async function listReportRuns(q: Queryable, { before, limit = 30 }: RunsQuery = {}): Promise<RunsPage<ReportRun>> {
  return runsPage((await selectRuns(q, limit + 1, before)).map(view), limit);
}

/** A finished run's file as its recipients received it (Admin → Reports, "Download"). */
export async function reportRunFile(q: Queryable, id: number): Promise<FileBody> {
  const file = await selectRunFile(q, id);
  if (!file) throw new NotFoundError("This run has no file: it is unknown, not finished, or failed before making one.");
  return file;
}
