import "server-only";
import type { Queryable } from "@/server/db/engine";
import { entryHash, GENESIS_HASH } from "./entry";
import { insertCheckpoint, lastCheckpoint, selectEntriesAfter, selectEntry } from "./queries";

export type VerifyMode = "full" | "incremental";

/**
 * `entries`: how many entries this verification read and checked; `throughSeq`: the last entry it vouches for;
 * `fromSeq`: the checkpoint it started after (incremental; 0 = the start of the chain).
 */
export type ChainVerdict =
  | { ok: true; mode: VerifyMode; entries: number; fromSeq: number; throughSeq: number }
  | { ok: false; mode: VerifyMode; entries: number; fromSeq: number; brokenSeq: number; reason: string };

export interface VerifyOptions {
  /** "full" walks the whole chain; "incremental" (default) starts after the last checkpoint. */
  mode?: VerifyMode;
  batch?: number;
  /** Write a checkpoint at the last entry when the verification holds (default true). */
  checkpoint?: boolean;
}

/**
 * Verifies the chain and names the first entry whose hash or link does not hold. Incremental: re-checks that the last
 * checkpoint's entry still holds its content and the checkpoint's hash, then reads only the entries after it, so the
 * cost follows what was appended since, not the trail's length; a full walk stays available (and is what catches a
 * change made before the last checkpoint). A verification that holds writes a checkpoint at its last entry
 * (checkpoints are append-only, like the trail).
 */
export async function verifyAuditChain(q: Queryable, options: VerifyOptions = {}): Promise<ChainVerdict> {
  const mode = options.mode ?? "incremental";
  const batch = options.batch ?? 5000;
  let prevHash = GENESIS_HASH;
  let lastSeq = 0;
  let fromSeq = 0;
  let count = 0;
  if (mode === "incremental") {
    const mark = await lastCheckpoint(q);
    if (mark) {
      const at = await selectEntry(q, mark.seq);
      count = 1;
      if (!at)
        return { ok: false, mode, entries: count, fromSeq: mark.seq, brokenSeq: mark.seq, reason: "the checkpoint's entry is missing" };
      if (at.hash !== mark.hash || entryHash(at.prevHash, at) !== at.hash) {
        return {
          ok: false,
          mode,
          entries: count,
          fromSeq: mark.seq,
          brokenSeq: mark.seq,
          reason: "the checkpoint's entry no longer matches its hash",
        };
      }
      prevHash = mark.hash;
      lastSeq = fromSeq = mark.seq;
    }
  }
  for (;;) {
    const rows = await selectEntriesAfter(q, lastSeq, batch);
    for (const row of rows) {
      count++;
      if (row.prevHash !== prevHash)
        return { ok: false, mode, entries: count, fromSeq, brokenSeq: row.seq, reason: "link to the previous entry is broken" };
      if (entryHash(prevHash, row) !== row.hash)
        return { ok: false, mode, entries: count, fromSeq, brokenSeq: row.seq, reason: "content does not match its hash" };
      prevHash = row.hash;
      lastSeq = row.seq;
    }
    if (rows.length < batch) break;
  }
  if (options.checkpoint !== false && lastSeq > fromSeq) {
    await insertCheckpoint(q, { seq: lastSeq, hash: prevHash, mode, checked: count });
  }
  return { ok: true, mode, entries: count, fromSeq, throughSeq: lastSeq };
}
