import "server-only";
import { userMessageOf } from "@/lib/errors";
import type { BulkJournalBatch, BulkJournalRow, BulkRowStatus } from "@/lib/schemas/bulk-journals";
import { performAudited, type ActionContext, type AuditNotes } from "@/server/action-kit/perform";
import { recordingBroker } from "@/server/action-kit/recording-broker";
import { broker } from "@/server/broker";
import type { BrokerClient } from "@/server/broker/client";
import type { AppDb } from "@/server/db";
import { cashJournal } from "@/server/movements/cash-journal";
import type { MovementOperation, MovementResult } from "@/server/movements/operation";
import { positionJournal } from "@/server/movements/position-journal";
import { notifyChange } from "@/server/notices/channel";
import { STUCK_AFTER_MS } from "@/server/approvals/liveness";
import { batchLedger } from "./ledger";
import { claimRow, releaseRow, selectRows, settleRow, touchBatch } from "./queries";

/** The live channel's topic of a batch's rows (the batch page reads itself again on it). */
export const BULK_TOPIC = "bulk-journal";

export const NOT_RECEIVED_MESSAGE =
  "The upstream never received it: nothing was sent. Retry failed rows sends it with the same request id.";

/** The row's kind's own operation: the one-journal form's checks, send and upstream lookup. */
const operationOf = (row: BulkJournalRow): MovementOperation => (row.kind === "CASH_JOURNAL" ? cashJournal : positionJournal);

/** Whether the upstream has the row's journal, by its request id (every movement operation can tell). */
const askUpstream = (row: BulkJournalRow, client: BrokerClient) => operationOf(row).lookup!(row.request, client);

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
    : { status: "failed", message: performed.userMessage };
}

/**
 * After a process stopped while sending the batch: each row not known as sent or failed is asked of the upstream by
 * its request id, never sent: known → sent, unknown → failed (nothing sent; Retry failed rows sends it). A row the
 * upstream could not answer for goes back as it was and the error is thrown, so the recovery asks again next minute.
 * Returns the batch's rows sent and not sent after it.
 */
export async function settleRowsFromUpstream(
  db: AppDb,
  batch: BulkJournalBatch,
  client: BrokerClient,
): Promise<{ sent: number; notSent: number }> {
  try {
    for (const row of batch.rows) {
      // The stopped execution's claims are taken over whatever their age: its process is gone (no beat).
      const before = await claimRow(db.engine, batch.batch_id, row.line, ["pending"], "any");
      if (!before) continue;
      let known: Awaited<ReturnType<typeof askUpstream>>;
      try {
        known = await askUpstream(row, client);
      } catch (error) {
        await releaseRow(db.engine, batch.batch_id, row.line, before);
        throw error;
      }
      await settleRow(
        db.engine,
        batch.batch_id,
        row.line,
        known.sent ? { status: "sent", upstreamStatus: known.status ?? null } : { status: "failed", message: NOT_RECEIVED_MESSAGE },
      );
    }
  } finally {
    await notifyChange(db.engine, { topics: [BULK_TOPIC], accounts: [] });
  }
  const rows = await selectRows(db.engine, batch.batch_id);
  const sent = rows.filter((r) => r.status === "sent").length;
  return { sent, notSent: rows.length - sent };
}
