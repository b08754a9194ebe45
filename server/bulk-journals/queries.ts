import "server-only";
import type { BulkJournalBatch, BulkRowStatus } from "@/lib/schemas/bulk-journals";
import type { Engine, Queryable } from "@/server/db/engine";

/** The bulk journals' statements: the batch and its rows (migration 0150), each row's claim and result. */

export interface DbBatch {
  id: string;
  payload_hash: string;
  maker_email: string;
  row_count: number;
  created_at: Date | string;
  last_run_at: Date | string | null;
}

export interface DbRow {
  line: number;
  kind: "CASH_JOURNAL" | "POSITION_JOURNAL";
  client_request_id: string;
  from_account: string;
  to_account: string;
  currency: string | null;
  amount: string | null;
  symbol: string | null;
  quantity: string | null;
  status: BulkRowStatus;
  upstream_status: string | null;
  message: string | null;
  attempts: number;
  updated_at: Date | string;
}

export async function selectBatch(q: Queryable, id: string): Promise<DbBatch | undefined> {
  const { rows } = await q.query<DbBatch>(
    "SELECT id, payload_hash, maker_email, row_count, created_at, last_run_at FROM brokerdesk.bulk_journal_batches WHERE id = $1",
    [id],
  );
  return rows[0];
}

/** The batch and its rows, once (a second hold of the same batch finds them written). */
export async function insertBatch(q: Engine, b: BulkJournalBatch, hash: string, makerEmail: string): Promise<void> {
  await q.transaction(async (tx) => {
    const { rows } = await tx.query(
      `INSERT INTO brokerdesk.bulk_journal_batches (id, payload_hash, maker_email, row_count) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [b.batch_id, hash, makerEmail, b.rows.length],
    );
    if (!rows.length) return;
    const col = <T>(f: (r: BulkJournalBatch["rows"][number]) => T) => b.rows.map(f);
    await tx.query(
      `INSERT INTO brokerdesk.bulk_journal_rows
         (batch_id, line, kind, client_request_id, from_account, to_account, currency, amount, symbol, quantity)
       SELECT $1, u.line, u.kind, u.crid, u.from_account, u.to_account, u.currency, u.amount::numeric, u.symbol, u.quantity::numeric
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
           AS u(line, kind, crid, from_account, to_account, currency, amount, symbol, quantity)`,
      [
        b.batch_id,
        col((r) => r.line),
        col((r) => r.kind),
        col((r) => r.request.client_request_id),
        col((r) => r.request.from_account),
        col((r) => r.request.to_account),
        col((r) => (r.kind === "CASH_JOURNAL" ? r.request.currency : null)),
        col((r) => (r.kind === "CASH_JOURNAL" ? r.request.amount : null)),
        col((r) => (r.kind === "POSITION_JOURNAL" ? r.request.symbol : null)),
        col((r) => (r.kind === "POSITION_JOURNAL" ? r.request.quantity : null)),
      ],
    );
  });
}

export async function selectRows(q: Queryable, batchId: string): Promise<DbRow[]> {
  const { rows } = await q.query<DbRow>(
    `SELECT line, kind, client_request_id, from_account, to_account, currency, amount::text AS amount, symbol,
            quantity::text AS quantity, status, upstream_status, message, attempts, updated_at
       FROM brokerdesk.bulk_journal_rows WHERE batch_id = $1 ORDER BY line`,
    [batchId],
  );
  return rows;
}

/**
 * Claims one row for sending (or for asking the upstream about it): only from the given states, and a row already
 * `sending` only when its claim is older than `claimedBefore` (its process stopped), or `"any"` (the recovery of an
 * execution known to have stopped). One UPDATE: two callers never
 * both hold a row. Returns the state it had, or undefined when it was not claimed.
 */
export async function claimRow(
  q: Queryable,
  batchId: string,
  line: number,
  from: BulkRowStatus[],
  sending?: { claimedBefore: Date } | "any",
): Promise<BulkRowStatus | undefined> {
  const { rows } = await q.query<{ before: BulkRowStatus }>(
    `UPDATE brokerdesk.bulk_journal_rows r SET status = 'sending', attempts = r.attempts + 1, updated_at = now()
       FROM (SELECT status FROM brokerdesk.bulk_journal_rows WHERE batch_id = $1 AND line = $2 FOR UPDATE) old
      WHERE r.batch_id = $1 AND r.line = $2
        AND (r.status = ANY($3::text[]) OR (r.status = 'sending' AND ($4::boolean OR r.updated_at < $5::timestamptz)))
      RETURNING old.status AS before`,
    [batchId, line, from, sending === "any", sending && sending !== "any" ? sending.claimedBefore : null],
  );
  return rows[0]?.before;
}

/** A row's outcome (sent with the upstream's status, or failed with its message). */
export async function settleRow(
  q: Queryable,
  batchId: string,
  line: number,
  o: { status: "sent" | "failed"; upstreamStatus?: string | null; message?: string | null },
): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.bulk_journal_rows SET status = $3, upstream_status = $4, message = $5, updated_at = now()
      WHERE batch_id = $1 AND line = $2`,
    [batchId, line, o.status, o.upstreamStatus ?? null, o.message ?? null],
  );
}

/** Puts a claimed row back as it was (the upstream could not be asked about it). */
export async function releaseRow(q: Queryable, batchId: string, line: number, status: BulkRowStatus): Promise<void> {
  await q.query("UPDATE brokerdesk.bulk_journal_rows SET status = $3, updated_at = now() WHERE batch_id = $1 AND line = $2", [
    batchId,
    line,
    status,
  ]);
}

export async function touchBatch(q: Queryable, batchId: string): Promise<void> {
  await q.query("UPDATE brokerdesk.bulk_journal_batches SET last_run_at = now() WHERE id = $1", [batchId]);
}
