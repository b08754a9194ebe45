import { z } from "zod";
import "./messages";
import type { Permission } from "@/lib/auth/permissions";

/** Scheduled reports (Admin → Reports, server/reports): what a schedule is, as its form and the actions take it. */
export const REPORT_KINDS = ["reconciliation_breaks", "daily_movements", "fx_volume", "commissions_by_account", "alerts"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  reconciliation_breaks: "Reconciliation breaks",
  daily_movements: "Daily movements",
  fx_volume: "FX volume",
  commissions_by_account: "Commissions by account",
  alerts: "Alerts opened and cleared",
};

/** What a recipient's role must read for a report to reach them: the books the report is made of. */
export const REPORT_KIND_PERMISSION: Record<ReportKind, Permission> = {
  reconciliation_breaks: "reconciliation:read",
  daily_movements: "movements:read",
  fx_volume: "movements:read",
  commissions_by_account: "orders:read",
  alerts: "alerts:read",
};

export const REPORT_FORMATS = ["csv", "pdf"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_CADENCES = ["daily", "weekdays"] as const;
export type ReportCadence = (typeof REPORT_CADENCES)[number];
export const REPORT_CADENCE_LABELS: Record<ReportCadence, string> = { daily: "Every day", weekdays: "Weekdays (Mon–Fri)" };

export const MAX_RECIPIENTS = 20;

export const reportScheduleSchema = z.object({
  name: z.string().trim().min(1, "Enter a name").max(80, "Use at most 80 characters"),
  kind: z.enum(REPORT_KINDS, { message: "Choose a report" }),
  format: z.enum(REPORT_FORMATS, { message: "Choose CSV or PDF" }),
  cadence: z.enum(REPORT_CADENCES, { message: "Choose when" }),
  atTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Enter a UTC time as HH:MM, e.g. 06:30"),
  recipients: z
    .array(z.string().trim().toLowerCase().email("Choose staff from the list"))
    .min(1, "Choose at least one recipient")
    .max(MAX_RECIPIENTS, `Choose at most ${MAX_RECIPIENTS} recipients`)
    .transform((r) => [...new Set(r)].sort()),
  enabled: z.boolean(),
});
export type ReportScheduleInput = z.input<typeof reportScheduleSchema>;
export type ReportScheduleValues = z.output<typeof reportScheduleSchema>;

const idSchema = z.coerce.number().int().positive();
export const updateReportScheduleSchema = reportScheduleSchema.extend({ id: idSchema });
export const reportScheduleIdSchema = z.object({ id: idSchema });
/** A run's route parameters (its file's download). */
export const reportRunParamsSchema = z.object({ runId: idSchema });

/** A schedule as the page shows it. */
export interface ReportSchedule extends ReportScheduleValues {
  id: number;
  createdBy: string;
  /** The next moment it runs (ISO), null while disabled. */
  nextAt: string | null;
}

/**
 * A run in the history. `status`: queued or running (the job has it), mailing (its mails are in the outbox),
 * sent (every mail left), failed (no file: `error` says why; or a mail the SMTP server kept refusing).
 */
export interface ReportRun {
  id: number;
  scheduleId: number | null;
  scheduleName: string;
  kind: string;
  format: string;
  slot: string;
  reportDay: string;
  trigger: "schedule" | "request";
  requestedBy: string | null;
  status: "queued" | "running" | "mailing" | "sent" | "failed";
  rows: number | null;
  recipients: string[];
  mailsSent: number;
  fileName: string | null;
  error: string | null;
  finishedAt: string | null;
}

/** A staff member a schedule may name: enabled staff, by email. */
export interface ReportRecipientOption {
  email: string;
  name: string;
}

/** The live topic of the reports page: a run asked for, done or failed, or one of its mails sent. */
export const REPORTS_TOPIC = "reports";
