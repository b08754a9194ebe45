import "server-only";
import { userMessageOf } from "@/lib/errors";
import type { BulkJournalBatch, BulkJournalRow, BulkRowStatus } from "@/lib/schemas/bulk-journals";
import { performAudited, type ActionContext, type AuditNotes } from "@/server/action-kit/perform";
import { recordingBroker } from "@/server/action-kit/recording-broker";
import { broker } from "@/server/broker";
import type { BrokerClient } from "@/server/broker/client";
import type { MovementResult } from "@/server/movements/operation";
import { notifyChange } from "@/server/notices/channel";
import { STUCK_AFTER_MS } from "@/server/approvals/liveness";
import { batchLedger } from "./ledger";
import { claimRow, settleRow, touchBatch } from "./queries";
import { askUpstream, BULK_TOPIC, operationOf } from "./settle";

export interface RunTotals {
  sent: number;
  failed: number;
  skipped: number;
}

/**
 * Sends a batch's rows in line order, each once: a row is claimed by one UPDATE (from `from`; a `sending` claim
 * whose process stopped once it is STUCK_AFTER_MS old), then sent through its kind's own operation (the one-journal
 * form's checks, its client_request_id fixed at upload) and audited under that kind's action as its own entry. A row
 * claimed from `failed` or a stale `sending` may have reached the upstream: it is asked first (by its request id) and
 * only sent when unknown. Rows not claimed (sent, or held by another caller) are skipped. The page hears of progress
 * on the live channel about once a second.
 */
export async function sendRows(batch: BulkJournalBatch, ctx: ActionContext, o: { from: BulkRowStatus[] }): Promise<RunTotals> {
  const totals: RunTotals = { sent: 0, failed: 0, skipped: 0 };
  const { db } = ctx;
  let told = Date.now();
  const tell = async (force = false) => {
    if (!force && Date.now() - told < 1_000) return;
    told = Date.now();
    await notifyChange(db.engine, { topics: [BULK_TOPIC], accounts: [] });
  };
  await touchBatch(db.engine, batch.batch_id);
  const ledger = batchLedger(broker());
  for (const row of batch.rows) {
    const before = await claimRow(db.engine, batch.batch_id, row.line, o.from, { claimedBefore: new Date(Date.now() - STUCK_AFTER_MS) });
    if (!before) {
      totals.skipped += 1;
      continue;
    }
    const { sentNow, ...outcome } = await sendRow(batch.batch_id, row, ctx, ledger.broker, before !== "pending");
    // Only what this run sent comes off the balances it read (a row the upstream already had is in them).
    if (sentNow) ledger.sent(row);
    await settleRow(db.engine, batch.batch_id, row.line, outcome);
    totals[outcome.status] += 1;
    await tell();
  }
  await tell(true);
  return totals;
}

async function sendRow(
  batchId: string,
  row: BulkJournalRow,
  ctx: ActionContext,
  client: BrokerClient,
  askFirst: boolean,
): Promise<{ status: "sent" | "failed"; upstreamStatus?: string | null; message?: string | null; sentNow?: boolean }> {
  const op = operationOf(row);
  if (askFirst) {
    try {
      const known = await askUpstream(row, client);
      if (known.sent) return { status: "sent", upstreamStatus: known.status ?? null };
    } catch (error) {
      return { status: "failed", message: userMessageOf(error, "The upstream could not say whether it has this journal; try again.") };
    }
  }
  // Its own context: its own audit entry with its own upstream request id, as the one-journal form's.
  const notes: AuditNotes = {};
  const rowCtx: ActionContext = { staff: ctx.staff, db: ctx.db, meta: ctx.meta, audit: notes, broker: recordingBroker(client, notes) };
  const performed = await performAudited<MovementResult>(rowCtx, {
    action: op.action,
    target: op.target(row.request),
    input: (upstreamRequestId) => ({ batch: batchId, line: row.line, request: row.request, upstreamRequestId: upstreamRequestId ?? null }),
    log: { batch: batchId, line: row.line },
    work: async () => ({ data: await op.send(row.request, rowCtx) }),
  });
  return performed.ok
    ? { status: "sent", upstreamStatus: performed.data.status, message: performed.data.reason ?? null, sentNow: true }
    : // The one-journal form's "submit again" is this page's "Retry failed rows" (the same request id again).
      {
        status: "failed",
        message: performed.userMessage.replace(
          / Submit again when ready:.*$/,
          " Retry failed rows when ready: the same request is sent, so it cannot be applied twice.",
        ),
      };
}
