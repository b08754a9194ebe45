import "server-only";
import type { Engine } from "@/server/db/engine";
import { onChange } from "./listen";

/**
 * Reads kept for a moment and dropped by the change notices of their topics: identical reads at once share one
 * call, and a read asked for again within `keepMs` takes the kept answer. A notice of one of the topics (from any
 * instance, or a trigger in the database) drops every kept read, as does `forget()` after a write of this process,
 * so a read after a change never gets an answer from before it. A failed read is not kept after it failed.
 *
 * Off until `start(engine)` has its notices listened to (the app's instrumentation does so at start): without them a
 * kept answer could miss a change made elsewhere, so every read then calls.
 */
export interface KeptReads {
  /** Starts keeping once the change notices of `engine` are heard; resolves when they are. */
  start(engine: Engine): Promise<void>;
  /** Whether reads are kept (notices heard). */
  isOn(): boolean;
  /** Every kept read dropped: the next read of each key calls. */
  forget(): void;
  /** `read()`, or the answer of the same read (same scope, same key) in flight or asked for within `keepMs`. */
  read<T>(scope: object, key: string, read: () => Promise<T>): Promise<T>;
}

interface Entry {
  at: number;
  value: Promise<unknown>;
}

/** On globalThis: Next may load a module once for the instrumentation and again for the routes and pages. */
interface State {
  on: boolean;
  listening?: Promise<void>;
  entries: WeakMap<object, Map<string, Entry>>;
}
const holder = globalThis as unknown as { __brokerdeskKeptReads?: Map<string, State> };

export function keptReads(name: string, o: { topics: string[]; keepMs: number; maxEntries?: number }): KeptReads {
  const maxEntries = o.maxEntries ?? 500;
  const state = (): State => {
    const all = (holder.__brokerdeskKeptReads ??= new Map());
    let s = all.get(name);
    if (!s) all.set(name, (s = { on: false, entries: new WeakMap() }));
    return s;
  };
  const forget = () => {
    state().entries = new WeakMap();
  };
  return {
    start(engine) {
      const s = state();
      s.listening ??= onChange(engine, (n) => {
        if (n.topics.some((t) => o.topics.includes(t))) forget();
      }).then(() => {
        s.on = true;
      });
      return s.listening;
    },
    isOn: () => state().on,
    forget,
    read<T>(scope: object, key: string, read: () => Promise<T>): Promise<T> {
      const s = state();
      if (!s.on) return read();
      let reads = s.entries.get(scope);
      if (!reads) s.entries.set(scope, (reads = new Map()));
      const now = Date.now();
      const hit = reads.get(key);
      if (hit && now - hit.at < o.keepMs) return hit.value as Promise<T>;
      if (reads.size >= maxEntries) for (const [k, e] of reads) if (now - e.at >= o.keepMs) reads.delete(k);
      const entry: Entry = { at: now, value: read() };
      reads.set(key, entry);
      const held = reads;
      entry.value.catch(() => held.get(key) === entry && held.delete(key));
      return entry.value as Promise<T>;
    },
  };
}
