import "server-only";
import type { BatchView } from "@/lib/schemas/bulk-journals";
import { accountNumbers } from "@/server/accounts/directory";
import { approvalsOfRequest } from "@/server/approvals/requests";
import type { AppDb } from "@/server/db";
import { BULK_JOURNALS_ACTION } from "./operation";
import { selectBatch, selectRows } from "./queries";

const iso = (d: Date | string) => new Date(d).toISOString();

/** A batch, its approval request (the latest one holding it) and its rows with their results; undefined when unknown. */
export async function getBatchView(db: AppDb, id: string): Promise<BatchView | undefined> {
  if (!/^[A-Za-z0-9_]{1,26}$/.test(id)) return undefined;
  const batch = await selectBatch(db.engine, id);
  if (!batch) return undefined;
  const [rows, approvals] = await Promise.all([selectRows(db.engine, id), approvalsOfRequest(db, [BULK_JOURNALS_ACTION], id)]);
  const approval = approvals.at(-1);
  const numbers = await accountNumbers(db.engine, [...new Set(rows.flatMap((r) => [r.from_account, r.to_account]))]);
  return {
    id: batch.id,
    makerEmail: batch.maker_email,
    createdAt: iso(batch.created_at),
    lastRunAt: batch.last_run_at ? iso(batch.last_run_at) : null,
    approval: approval && { id: approval.id, status: approval.status, summary: approval.summary, error: approval.error },
    accountNumbers: Object.fromEntries(numbers),
    rows: rows.map((r) => ({
      line: r.line,
      kind: r.kind,
      clientRequestId: r.client_request_id,
      fromAccount: r.from_account,
      toAccount: r.to_account,
      currency: r.currency,
      amount: r.amount,
      symbol: r.symbol,
      quantity: r.quantity,
      status: r.status,
      upstreamStatus: r.upstream_status,
      message: r.message,
      attempts: r.attempts,
    })),
  };
}
