import "server-only";
import type { Sort } from "@/lib/list-params";
import type { AuditFilter, AuditSort } from "@/lib/schemas/audit";
import { resolveAccount } from "@/server/accounts/directory";
import type { Queryable } from "@/server/db/engine";
import { pageLimit } from "@/server/db/keyset";
import type { AuditRow } from "./entry";
import { selectAuditPage, selectEntry, selectSameRequest, selectSameTarget } from "./queries";

/** Reading the audit trail: keyset pages under a filter, one entry, and the entries related to one. */

export interface AuditQuery extends AuditFilter {
  /** Newest first by default. */
  sort?: Sort<AuditSort>;
  /** Keyset cursor from the previous page's `nextCursor`. */
  cursor?: string;
  limit?: number;
}

/**
 * One page of the trail, filtered and sorted in SQL, with the cursor of the next page. A bare target (no `:`) is an
 * account's id or its number, in any case, as the table names it: a number the directory knows is read as its
 * account's id, whose entries the target then finds (its account and its orders).
 */
export async function listAudit(q: Queryable, query: AuditQuery = {}): Promise<{ rows: AuditRow[]; nextCursor?: string }> {
  const target = query.target && !query.target.includes(":") ? (await resolveAccount(q, query.target)).accountId : query.target;
  return selectAuditPage(q, {
    ...query,
    target,
    sort: query.sort ?? { id: "seq", desc: true },
    limit: pageLimit(query.limit, 500),
  });
}

/** One entry, or undefined. */
export function getAuditEntry(q: Queryable, seq: number): Promise<AuditRow | undefined> {
  return selectEntry(q, seq);
}

/**
 * What an entry's detail lists beside it: the other entries of the same upstream request, and the entries of the same
 * target nearest to it (up to `around` before and after), each newest first. Both read an index (migration 0031).
 */
export async function relatedAuditEntries(
  q: Queryable,
  entry: AuditRow,
  around = 5,
): Promise<{ sameRequest: AuditRow[]; sameTarget: AuditRow[] }> {
  const [sameRequest, before, after] = await Promise.all([
    entry.upstreamRequestId ? selectSameRequest(q, entry.upstreamRequestId, entry.seq) : [],
    entry.target ? selectSameTarget(q, entry.target, entry.seq, "before", around) : [],
    entry.target ? selectSameTarget(q, entry.target, entry.seq, "after", around) : [],
  ]);
  return { sameRequest, sameTarget: [...after.reverse(), ...before] };
}
