import "server-only";
import { AppError, NotFoundError } from "@/lib/errors";
import { PERMISSION_LABELS } from "@/lib/auth/permissions";
import { REPORT_KIND_PERMISSION, type ReportKind, type ReportRecipientOption, type ReportSchedule, type ReportScheduleValues } from "@/lib/schemas/reports";
import { accessOfRole } from "@/server/roles/roles";
import type { Queryable } from "@/server/db/engine";
import {
  deleteScheduleRow,
  insertSchedule,
  selectActiveStaff,
  selectActiveStaffEmails,
  selectSchedules,
  updateSchedule,
  type ScheduleRow,
} from "./queries";
import { nextSlot } from "./slots";

/** The schedules of Admin → Reports: list, create, edit (enable or disable), delete; recipients are enabled staff. */

const view = (s: ScheduleRow, now: Date): ReportSchedule => {
  const next = nextSlot(s, now);
  const from = new Date(s.activeFrom);
  return {
    id: Number(s.id),
    name: s.name,
    kind: s.kind,
    format: s.format,
    cadence: s.cadence,
    atTime: s.atTime,
    recipients: s.recipients,
    enabled: s.enabled,
    createdBy: s.createdBy,
    nextAt: s.enabled ? (next > from ? next : nextSlot(s, from)).toISOString() : null,
  };
};

export async function listSchedules(q: Queryable, now = new Date()): Promise<ReportSchedule[]> {
  return (await selectSchedules(q)).map((s) => view(s, now));
}

export const listRecipientOptions = (q: Queryable): Promise<ReportRecipientOption[]> => selectActiveStaff(q);

/**
 * Of `recipients`, those a report of `kind` may reach: enabled staff whose role, as it is now, reads the books the
 * report is made of (REPORT_KIND_PERMISSION); the others, as not staff or not allowed.
 */
export async function reportRecipients(
  q: Queryable,
  kind: ReportKind,
  recipients: string[],
): Promise<{ allowed: string[]; notStaff: string[]; notAllowed: string[] }> {
  const staff = await selectActiveStaffEmails(q, recipients);
  const roles = new Map<string, boolean>();
  for (const role of new Set(staff.map((r) => r.role)))
    roles.set(role, (await accessOfRole(q, role))?.permissions.includes(REPORT_KIND_PERMISSION[kind]) ?? false);
  const known = new Set(staff.map((r) => r.email));
  return {
    allowed: staff.filter((r) => roles.get(r.role)).map((r) => r.email),
    notStaff: recipients.filter((r) => !known.has(r)),
    notAllowed: staff.filter((r) => !roles.get(r.role)).map((r) => r.email),
  };
}

/** Refuses a recipient who is not enabled staff, or whose role may not read the report (the field's error names them). */
async function checkRecipients(q: Queryable, s: ReportScheduleValues): Promise<void> {
  const { notStaff, notAllowed } = await reportRecipients(q, s.kind, s.recipients);
  const message = notStaff.length
    ? `Not enabled staff: ${notStaff.join(", ")}. Reports go to the desk's staff only.`
    : notAllowed.length
      ? `Their role may not read this report (${PERMISSION_LABELS[REPORT_KIND_PERMISSION[s.kind]].toLowerCase()}): ${notAllowed.join(", ")}.`
      : undefined;
  if (message) throw new AppError("VALIDATION", message, message, { recipients: message });
}

export async function createSchedule(q: Queryable, s: ReportScheduleValues, by: string, now = new Date()): Promise<ReportSchedule> {
  await checkRecipients(q, s);
  return view(await insertSchedule(q, s, by, now), now);
}

export async function editSchedule(q: Queryable, id: number, s: ReportScheduleValues, now = new Date()): Promise<ReportSchedule> {
  await checkRecipients(q, s);
  const row = await updateSchedule(q, id, s, now);
  if (!row) throw new NotFoundError("This schedule no longer exists.");
  return view(row, now);
}

export async function deleteSchedule(q: Queryable, id: number): Promise<void> {
  if (!(await deleteScheduleRow(q, id))) throw new NotFoundError("This schedule no longer exists.");
}
