import "server-only";
import { AppError, NotFoundError } from "@/lib/errors";
import type { ReportRecipientOption, ReportSchedule, ReportScheduleValues } from "@/lib/schemas/reports";
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

/** Refuses a recipient who is not enabled staff (the field's error names them). */
async function checkRecipients(q: Queryable, recipients: string[]): Promise<void> {
  const active = new Set(await selectActiveStaffEmails(q, recipients));
  const unknown = recipients.filter((r) => !active.has(r));
  if (unknown.length) {
    const message = `Not enabled staff: ${unknown.join(", ")}. Reports go to the desk's staff only.`;
    throw new AppError("VALIDATION", message, message, { recipients: message });
  }
}

export async function createSchedule(q: Queryable, s: ReportScheduleValues, by: string, now = new Date()): Promise<ReportSchedule> {
  await checkRecipients(q, s.recipients);
  return view(await insertSchedule(q, s, by, now), now);
}

export async function editSchedule(q: Queryable, id: number, s: ReportScheduleValues, now = new Date()): Promise<ReportSchedule> {
  await checkRecipients(q, s.recipients);
  const row = await updateSchedule(q, id, s, now);
  if (!row) throw new NotFoundError("This schedule no longer exists.");
  return view(row, now);
}

export async function deleteSchedule(q: Queryable, id: number): Promise<void> {
  if (!(await deleteScheduleRow(q, id))) throw new NotFoundError("This schedule no longer exists.");
}
