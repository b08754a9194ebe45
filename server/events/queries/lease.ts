import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The lease rows of brokerdesk.leases (server/events/leader.ts). Times are the database's, one clock for every process. */

/**
 * Takes the lease `name` for `holder` when it is free, expired or its own (a leadership of this holder that ended
 * without giving it up); answers the new term, or undefined when another holds it.
 */
export async function acquireLease(q: Queryable, name: string, holder: string, ms: number): Promise<number | undefined> {
  const { rows } = await q.query<{ term: string }>(
    `INSERT INTO brokerdesk.leases AS l (name, holder, term, acquired_at, expires_at)
       VALUES ($1, $2, 1, now(), now() + $3 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, term = l.term + 1, acquired_at = now(), expires_at = EXCLUDED.expires_at
       WHERE l.expires_at <= now() OR l.holder = EXCLUDED.holder
     RETURNING term::text`,
    [name, holder, ms],
  );
  return rows[0] ? Number(rows[0].term) : undefined;
}

/** Moves the lease's expiry on while `holder` still holds it at `term`; false when it was taken over. */
export async function renewLease(q: Queryable, name: string, holder: string, term: number, ms: number): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.leases SET expires_at = now() + $4 * interval '1 millisecond'
      WHERE name = $1 AND holder = $2 AND term = $3 RETURNING 1 AS ok`,
    [name, holder, term, ms],
  );
  return rows.length === 1;
}

/**
 * Inside a transaction: whether `holder` still holds the lease at `term`. The row stays share-locked until the
 * transaction ends, so a takeover waits for what this holder is committing and the new holder reads it.
 */
export async function holdsLease(tx: Queryable, name: string, holder: string, term: number): Promise<boolean> {
  const { rows } = await tx.query("SELECT 1 AS ok FROM brokerdesk.leases WHERE name = $1 AND holder = $2 AND term = $3 FOR SHARE", [
    name,
    holder,
    term,
  ]);
  return rows.length === 1;
}

/** Gives the lease up at once (a standby need not wait for it to expire). */
export async function releaseLease(q: Queryable, name: string, holder: string, term: number): Promise<void> {
  await q.query("UPDATE brokerdesk.leases SET expires_at = now() WHERE name = $1 AND holder = $2 AND term = $3", [name, holder, term]);
}
