import "server-only";
import type { Engine } from "@/server/db/engine";
import { onChange } from "@/server/notices/listen";

/**
 * Identical upstream reads of accounts, shared by the staff asking at once. A change notice of an account makes every
 * open accounts table read its page again: fifty of them would queue fifty calls in the upstream's account group
 * (10 a second), the last answered five seconds later. A read joins one in flight with the same key, or takes an
 * answer asked for at most `SHARE_MS` ago. An account change (a notice from the books, whichever instance or customer
 * made it, or a write from this process) drops every shared read, so a read after a change never gets an answer from
 * before it. A failed read is not shared after it failed.
 *
 * Off until `shareAccountReads(engine)` has its notices listened to (the app's instrumentation does so at start):
 * without them a shared answer could miss a change made elsewhere.
 */
export const SHARE_MS = 2_000;
const MAX_ENTRIES = 500;

interface Entry {
  at: number;
  value: Promise<unknown>;
}

/** On globalThis: Next may load this module once for the instrumentation and again for the routes and pages. */
interface Sharing {
  on: boolean;
  listening?: Promise<void>;
  entries: WeakMap<object, Map<string, Entry>>;
}
const holder = globalThis as unknown as { __brokerdeskAccountReads?: Sharing };
const sharing = (): Sharing => (holder.__brokerdeskAccountReads ??= { on: false, entries: new WeakMap() });

/** Starts sharing once the change notices of `engine` are heard; resolves when they are. */
export function shareAccountReads(engine: Engine): Promise<void> {
  const s = sharing();
  s.listening ??= onChange(engine, (n) => {
    if (n.topics.includes("account")) forgetAccountReads();
  }).then(() => {
    s.on = true;
  });
  return s.listening;
}

/** Whether reads are shared (notices heard). */
export const isShared = () => sharing().on;

/** Every shared read dropped: the next read of each key goes upstream. */
export function forgetAccountReads(): void {
  sharing().entries = new WeakMap();
}

/** `read()`, or the answer of the same read (same client, same key) in flight or asked for within `SHARE_MS`. */
export function sharedRead<T>(client: object, key: string, read: () => Promise<T>): Promise<T> {
  const s = sharing();
  if (!s.on) return read();
  let reads = s.entries.get(client);
  if (!reads) s.entries.set(client, (reads = new Map()));
  const now = Date.now();
  const hit = reads.get(key);
  if (hit && now - hit.at < SHARE_MS) return hit.value as Promise<T>;
  if (reads.size >= MAX_ENTRIES) for (const [k, e] of reads) if (now - e.at >= SHARE_MS) reads.delete(k);
  const entry: Entry = { at: now, value: read() };
  reads.set(key, entry);
  const held = reads;
  entry.value.catch(() => held.get(key) === entry && held.delete(key));
  return entry.value as Promise<T>;
}
