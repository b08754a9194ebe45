import "server-only";
import type { Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { evaluateSurveillance } from "@/server/surveillance/evaluate";
import { lockWatermark, saveWatermark } from "./queries";

const WATERMARK = "surveillance";

/**
 * The surveillance job's work: the enabled rules over the read-model rows whose last event came after the watermark,
 * up to the newest stored event, and the watermark moved there, in one transaction (the watermark row locked). Events
 * commit in seq order (ingest holds one lock from storing to commit), so every seq up to the newest is final: nothing
 * is evaluated twice or missed. A row changed again later is evaluated again in its new state; an alert is unique on
 * (rule, subject), so that raises nothing twice.
 */
export async function evaluateNewEvents(engine: Engine): Promise<{ from: number; to: number; raised: number }> {
  return engine.transaction(async (tx) => {
    const { from, to } = await lockWatermark(tx, WATERMARK);
    if (to <= from) return { from, to, raised: 0 };
    const raised = await evaluateSurveillance(tx, { from: from + 1, to });
    await saveWatermark(tx, WATERMARK, to);
    if (raised) await notifyChange(tx, { topics: ["alert"], accounts: [] });
    return { from: from + 1, to, raised };
  });
}
