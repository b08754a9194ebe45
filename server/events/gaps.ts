import "server-only";
import type { Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { insertGapRun, selectGapStart } from "./queries/sync";
import { adoptResumePoint } from "./queries/stream";

/**
 * What a subscription's SubscribeSuccess says about the books: the upstream answers the point it streams from
 * (`last_event_id`). With none of its own the consumer stores that point at once, so a restart before the first
 * stored event resumes there instead of at the then newest event. The events before it that the books never got
 * (the books held no point while a backfill had finished, or the upstream streams from another point than the one
 * asked for) are a gap: a backfill run of that window is recorded, and the job system runs it (topic "backfill").
 */
export function upstreamResumePoint(payload: string): string | undefined {
  try {
    const id = (JSON.parse(payload) as { last_event_id?: unknown }).last_event_id;
    return typeof id === "string" && id ? id : typeof id === "number" ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

/** Returns the window's start when a gap backfill was recorded. */
export async function onSubscribed(engine: Engine, asked: string | undefined, upstream: string | undefined): Promise<Date | undefined> {
  if (!upstream || asked === upstream) return undefined;
  if (!asked) await adoptResumePoint(engine, upstream);
  const from = await selectGapStart(engine);
  if (!from || !(await insertGapRun(engine, from, "event stream gap"))) return undefined;
  await notifyChange(engine, { topics: ["stream", "backfill"], accounts: [] });
  return from;
}
