import "server-only";
import { createHash } from "node:crypto";
import { formatMoney, addDecimal } from "@/lib/money";
import { bulkJournalBatchSchema, type BulkJournalBatch } from "@/lib/schemas/bulk-journals";
import type { ApprovableOperation } from "@/server/approvals/operation";
import { canonicalJson } from "@/server/audit/entry";
import { getDb } from "@/server/db";
import { logger } from "@/server/log";
import { insertBatch } from "./queries";
import { settleRowsFromUpstream } from "./settle";

/** The held payload's hash, as the approvals store it: the same batch id with other rows is another batch. */
export const batchHash = (b: BulkJournalBatch) => createHash("sha256").update(canonicalJson(b)).digest("hex");

export const BULK_JOURNALS_ACTION = "movements.bulk_journals";

/** Where a batch's per-row results are shown. */
export const batchHref = (batchId: string) => `/movements/bulk/${encodeURIComponent(batchId)}`;

/**
 * A batch of cash and position journals as one approvable operation: always held (its rule key's default rule has
 * no threshold, and the upload refuses a batch no enabled rule holds), approved as one request, and executed by
 * sending each row once through its kind's own operation with the client_request_id it got at upload. A batch whose
 * execution stopped is settled by asking the upstream about each row (`lookup`), never by sending.
 */
export const bulkJournals: ApprovableOperation<typeof bulkJournalBatchSchema> = {
  action: BULK_JOURNALS_ACTION,
  schema: bulkJournalBatchSchema,
  assess: async () => ({ ruleKeys: [BULK_JOURNALS_ACTION] }),
  // Rows of several currencies: a batch has no one amount; its rule has no threshold.
  money: () => undefined,
  target: (b) => `bulk-journal:${b.batch_id}`,
  accounts: (b) => [...new Set(b.rows.flatMap((r) => [r.request.from_account, r.request.to_account]))],
  summary: summarize,
  clientRequestId: (b) => b.batch_id,
  async run(batch, ctx) {
    // Written when it was held; written here too should that write have failed then.
    await insertBatch(ctx.db.engine, batch, batchHash(batch), ctx.staff.email);
    // Loaded here, in the app's process that executes an approved request: the sending steps are the action kit's
    // (Next's runtime); the job system reaches this module for `lookup` only (./settle.ts).
    const { sendRows } = await import("./send");
    const totals = await sendRows(batch, ctx, { from: ["pending"] });
    return { batch_id: batch.batch_id, rows: batch.rows.length, ...totals };
  },
  async onStatus(batch, status, o) {
    if (status !== "AWAITING_APPROVAL") return;
    try {
      await insertBatch(o.ctx.db.engine, batch, batchHash(batch), o.makerEmail);
    } catch (error) {
      logger.warn({ err: error, batch: batch.batch_id }, "bulk journal batch record failed; its execution writes it");
    }
  },
  async lookup(batch, client) {
    const { sent, notSent } = await settleRowsFromUpstream(await getDb(), batch, client);
    return sent ? { sent: true, status: notSent ? `${sent} of ${sent + notSent} rows sent` : `all ${sent} rows sent` } : { sent: false };
  },
  resultLink: (b) => ({ href: batchHref(b.batch_id), label: `Results of batch ${b.batch_id}` }),
};

/** "Bulk journals: 500 rows: 497 cash journals (USD 1,250,000.00, HKD 30,000.00), 3 position journals". */
function summarize(b: BulkJournalBatch): string {
  const sums = new Map<string, string>();
  let cash = 0;
  for (const r of b.rows) {
    if (r.kind !== "CASH_JOURNAL") continue;
    cash += 1;
    sums.set(r.request.currency, addDecimal(sums.get(r.request.currency) ?? "0", r.request.amount));
  }
  const positions = b.rows.length - cash;
  const parts = [
    cash ? `${cash} cash journal${cash === 1 ? "" : "s"} (${[...sums].map(([c, a]) => formatMoney(a, c)).join(", ")})` : "",
    positions ? `${positions} position journal${positions === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  return `Bulk journals, batch ${b.batch_id}: ${b.rows.length} row${b.rows.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
}
