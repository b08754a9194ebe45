import "server-only";
import type { TimelineKind } from "@/lib/schemas/account-timeline";
import type { Queryable } from "@/server/db/engine";
import type { TimelineRow } from "../entries";
import { SOURCES, type TimelineSource } from "./sources";

/** The stream's order is (at, kind, id), all descending; the cursor is the last entry's triple (base64url JSON). */
export type TimelineCursor = { at: string; kind: string; id: string };

/**
 * One branch: the source's rows after the cursor, newest first, at most `limit + 1` of them. The cursor's kind is
 * constant within a branch, so "(at, kind, id) < cursor" becomes a condition on (at, id) that the source's index serves.
 */
function branch(s: TimelineSource, after: TimelineCursor | undefined, params: unknown[], limit: number): string {
  const where = [...s.where];
  if (after) {
    params.push(after.at);
    const at = `$${params.length}::timestamptz`;
    if (s.kind < after.kind) where.push(`${s.at} <= ${at}`);
    else if (s.kind > after.kind) where.push(`${s.at} < ${at}`);
    else {
      params.push(after.id);
      where.push(`(${s.at}, ${s.id}) < (${at}, $${params.length}::${s.idType})`);
    }
  }
  const sortId = s.idType === "bigint" ? `lpad(${s.id}::text, 20, '0')` : `${s.id}::text`;
  return `(SELECT '${s.kind}'::text AS kind, ${s.id}::text AS id, ${sortId} AS sort_id, ${s.at} AS at,
      to_char(${s.at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key, ${s.data} AS data
    FROM ${s.from} WHERE ${where.join(" AND ")} ORDER BY ${s.at} DESC, ${s.id} DESC LIMIT ${limit + 1})`;
}

/** Up to `limit + 1` rows of the account's timeline after the cursor: one keyset branch a kind, merged in (at, kind, id) order. */
export async function selectTimelineRows(
  q: Queryable,
  input: { accountId: string; kinds: readonly TimelineKind[]; after?: TimelineCursor; limit: number },
): Promise<(TimelineRow & { sort_id: string; at_key: string })[]> {
  const params: unknown[] = [input.accountId];
  const branches = SOURCES.filter((s) => input.kinds.includes(s.kind)).map((s) => branch(s, input.after, params, input.limit));
  const { rows } = await q.query<TimelineRow & { sort_id: string; at_key: string }>(
    `SELECT kind, id, at, at_key, data FROM (${branches.join("\nUNION ALL\n")}) t
     ORDER BY at DESC, kind COLLATE "C" DESC, sort_id COLLATE "C" DESC LIMIT ${input.limit + 1}`,
    params,
  );
  return rows;
}
