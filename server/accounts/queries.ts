import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The accounts domain's SQL: the account directory (brokerdesk.account_directory: numbers by account id). */

export interface DirectoryRow {
  account_id: string;
  account_number: string;
}

/** Records each id's number (pairs by position); a row changes only when its number does. */
export async function upsertAccountNumbers(q: Queryable, ids: string[], numbers: string[]): Promise<void> {
  await q.query(
    `INSERT INTO brokerdesk.account_directory (account_id, account_number)
     SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (account_id) DO UPDATE
       SET account_number = EXCLUDED.account_number, updated_at = now()
       WHERE account_directory.account_number IS DISTINCT FROM EXCLUDED.account_number`,
    [ids, numbers],
  );
}

export async function selectAccountNumbers(q: Queryable, ids: string[]): Promise<DirectoryRow[]> {
  const { rows } = await q.query<DirectoryRow>(
    "SELECT account_id, account_number FROM brokerdesk.account_directory WHERE account_id = ANY($1::text[])",
    [ids],
  );
  return rows;
}

/**
 * The directory's row whose id, or else whose number, is `account`: a number in any case ("vbd1000030" is VBD1000030),
 * compared upper-cased as the index of migration 0230 holds it; the number as typed first when two differ only in case.
 */
export async function selectAccountByIdOrNumber(q: Queryable, account: string): Promise<DirectoryRow | undefined> {
  const { rows } = await q.query<DirectoryRow>(
    `SELECT account_id, account_number FROM brokerdesk.account_directory WHERE account_id = $1 OR upper(account_number) = upper($1)
      ORDER BY (account_id = $1) DESC, (account_number = $1) DESC LIMIT 1`,
    [account],
  );
  return rows[0];
}
