import "server-only";
import type { ReportCadence } from "@/lib/schemas/reports";

/**
 * When a schedule runs: every day, or for the weekdays, at a UTC time. A slot is one such moment; its run covers the
 * UTC day before it, so a weekdays schedule, which reports Monday to Friday, runs Tuesday to Saturday. Pure, so that
 * tests move the clock.
 */
interface When {
  cadence: ReportCadence;
  atTime: string;
}

const DAY_MS = 86_400_000;

function atTimeOf(day: Date, atTime: string): Date {
  const [h, m] = atTime.split(":").map(Number);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), h, m));
}

/** Whether a schedule has a slot at `slot`: every day, or (weekdays) when the day it reports on is Monday to Friday. */
const runsOn = (w: When, slot: Date) => {
  const reported = new Date(slot.getTime() - DAY_MS).getUTCDay();
  return w.cadence === "daily" || (reported >= 1 && reported <= 5);
};

/** The latest slot at or before `now`. */
export function latestSlot(w: When, now: Date): Date {
  let slot = atTimeOf(now, w.atTime);
  if (slot > now) slot = new Date(slot.getTime() - DAY_MS);
  while (!runsOn(w, slot)) slot = new Date(slot.getTime() - DAY_MS);
  return slot;
}

/**
 * The slots a schedule owes at `now`, oldest first: those at or after `from` (when it was made, edited or enabled) and
 * after `last` (its latest scheduled run), at most `max` of them (the latest ones).
 */
export function dueSlots(w: When, now: Date, from: Date, last: Date | null, max: number): Date[] {
  const due: Date[] = [];
  for (let slot = latestSlot(w, now); due.length < max && slot >= from && (!last || slot > last); ) {
    due.push(slot);
    slot = latestSlot(w, new Date(slot.getTime() - 1));
  }
  return due.reverse();
}

/** The first slot after `now`. */
export function nextSlot(w: When, now: Date): Date {
  let slot = atTimeOf(now, w.atTime);
  if (slot <= now) slot = new Date(slot.getTime() + DAY_MS);
  while (!runsOn(w, slot)) slot = new Date(slot.getTime() + DAY_MS);
  return slot;
}

/** The UTC day (yyyy-mm-dd) a run at `moment` reports on: the day before. */
export const reportDayOf = (moment: Date): string => new Date(moment.getTime() - DAY_MS).toISOString().slice(0, 10);

/** The day's bounds: [day 00:00, next day 00:00) UTC. */
export function dayBounds(day: string): { start: Date; end: Date } {
  const start = new Date(`${day}T00:00:00.000Z`);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}
