import "server-only";
import { keptReads } from "@/server/notices/kept-reads";

/**
 * Identical upstream reads of accounts, shared by the staff asking at once. A change notice of an account makes every
 * open accounts table read its page again: fifty of them would queue fifty calls in the upstream's account group
 * (10 a second), the last answered five seconds later. A read joins one in flight with the same key (and client), or
 * takes an answer asked for at most `SHARE_MS` ago. An account change (a notice from the books, whichever instance or
 * customer made it, or a write from this process: `forgetAccountReads`) drops every shared read
 * (server/notices/kept-reads.ts).
 */
export const SHARE_MS = 2_000;
const accountReads = keptReads("accounts", { topics: ["account"], keepMs: SHARE_MS });

/** Starts sharing once the change notices of `engine` are heard (the app's instrumentation); resolves when they are. */
export const shareAccountReads = accountReads.start;
export const isShared = accountReads.isOn;
export const forgetAccountReads = accountReads.forget;
export const sharedRead = accountReads.read;
