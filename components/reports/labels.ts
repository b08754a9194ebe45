import type { Tone } from "@/components/ui/badge";
import { REPORT_CADENCE_LABELS, type ReportRun, type ReportSchedule } from "@/lib/schemas/reports";

export const RUN_STATUS_LABELS: Record<ReportRun["status"], string> = {
  queued: "Queued",
  running: "Running",
  mailing: "Mailing",
  sent: "Sent",
  failed: "Failed",
};
export const RUN_STATUS_TONES: Record<ReportRun["status"], Tone> = {
  queued: "slate",
  running: "blue",
  mailing: "amber",
  sent: "green",
  failed: "red",
};

export const FORMAT_LABELS: Record<string, string> = { csv: "CSV", pdf: "PDF" };

/** "Weekdays (Mon–Fri) at 06:30" (the column says UTC). */
export const whenOf = (s: Pick<ReportSchedule, "cadence" | "atTime">) => `${REPORT_CADENCE_LABELS[s.cadence]} at ${s.atTime}`;

/** A moment as the page shows times: UTC to the minute. */
export const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
