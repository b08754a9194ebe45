import "server-only";
import type { BulkJournalBatch, BulkJournalRow } from "@/lib/schemas/bulk-journals";
import type { BrokerClient } from "@/server/broker/client";
import type { AppDb } from "@/server/db";
import { cashJournal } from "@/server/movements/cash-journal";
import type { MovementOperation } from "@/server/movements/operation";
import { positionJournal } from "@/server/movements/position-journal";
import { notifyChange } from "@/server/notices/channel";
import { claimRow, releaseRow, selectRows, settleRow } from "./queries";

/**
 * What a batch's recovery needs, and nothing of the action kit's audited steps (which need Next's runtime): the job
 * system's stuck-execution check reaches this module through the approvals registry, in a process without Next.
 */

/** The live channel's topic of a batch's rows (the batch page reads itself again on it). */
export const BULK_TOPIC = "bulk-journal";

export const NOT_RECEIVED_MESSAGE =
  "The upstream never received it: nothing was sent. Retry failed rows sends it with the same request id.";

/** The row's kind's own operation: the one-journal form's checks, send and upstream lookup. */
export const operationOf = (row: BulkJournalRow): MovementOperation => (row.kind === "CASH_JOURNAL" ? cashJournal : positionJournal);

/** Whether the upstream has the row's journal, by its request id (every movement operation can tell). */
export const askUpstream = (row: BulkJournalRow, client: BrokerClient) => operationOf(row).lookup!(row.request, client);

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
