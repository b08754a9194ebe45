import "server-only";
import { keptReads } from "@/server/notices/kept-reads";

/**
 * The staff rows the session check reads (server/auth/guard.ts), kept for a moment: every request of a signed-in
 * staff member reads their row (disabled, role and its permissions, sessions revoked), one more round trip a request
 * on a busy desk. Any change of a staff row or of a role sends the "staff" notice from the database itself
 * (migration 0210's triggers, whoever made the change), which drops every kept row on every instance; this process's
 * own writes drop them at once as well. A row is read again after `KEEP_MS` whatever is heard.
 */
export const KEEP_MS = 2_000;
const staffRows = keptReads("staff", { topics: ["staff"], keepMs: KEEP_MS });

/** Starts keeping once the change notices of `engine` are heard (the app's instrumentation); resolves when they are. */
export const keepStaffRows = staffRows.start;
export const forgetStaffRows = staffRows.forget;
export const keptStaffRow = staffRows.read;
