/**
 * Date formatting shared by server and browser; money and quantities are formatted by `lib/money.ts`. One format
 * for a moment in time and one for a calendar day, everywhere: "2026-09-28 09:37:00 UTC" and "2026-09-28".
 */
const pad = (n: number) => String(n).padStart(2, "0");

/** A moment: "2026-09-28 09:37:00 UTC". */
export function formatDateTime(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return `${formatDate(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/** A calendar day: "2026-09-28" (a day given as "2026-09-28" stays as it is; a moment is taken in UTC). */
export function formatDate(value: string | Date): string {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const d = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** How a calendar day is typed into a date field: the placeholder of every one (`components/ui/date-input.tsx`). */
export const DATE_PLACEHOLDER = "YYYY-MM-DD";

/** A calendar day written as the desk writes it, yyyy-mm-dd, and one that exists ("2026-02-30" does not). */
export function isDeskDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** A span of time for people: "< 1 min", "45 min", "3 h 20 min", "2 d 4 h". */
export function formatDuration(ms: number): string {
  const min = Math.floor(Math.abs(ms) / 60_000);
  if (min < 1) return "< 1 min";
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** How long ago, in words a reader takes in at a glance. */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

/** A file's size for people: "18 KB", "2.4 MB" (at least 1 KB). */
export function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.ceil(bytes / 1024))} KB` : `${(bytes / 1048576).toFixed(1)} MB`;
}
