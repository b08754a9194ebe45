import "server-only";
import { can, type Access } from "@/lib/auth/permissions";
import {
  TIMELINE_KIND_PERMISSION,
  TIMELINE_KINDS,
  TIMELINE_PAGE_SIZE,
  type TimelineKind,
  type TimelinePage,
} from "@/lib/schemas/account-timeline";
import type { Queryable } from "@/server/db/engine";
import { pageLimit } from "@/server/db/keyset";
import { toEntry } from "./entries";
import { selectTimelineRows, type TimelineCursor as Cursor } from "./queries/timeline";

function encode(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at, c.kind, c.id])).toString("base64url");
}

function decode(cursor: string | undefined): Cursor | undefined {
  if (!cursor) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === "string")) return undefined;
    const [at, kind, id] = v as string[];
    // Only what this module wrote: a hand-made cursor reads the first page rather than failing a cast in SQL.
    const idOk = kind === "approval" ? /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) : /^\d{1,18}$/.test(id);
    const atOk =
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(at) &&
      !Number.isNaN(Date.parse(at)) &&
      new Date(at).toISOString().slice(0, 19) === at.slice(0, 19); // no 30 February: PostgreSQL would refuse it
    return atOk && idOk && (TIMELINE_KINDS as readonly string[]).includes(kind) ? { at, kind, id } : undefined;
  } catch {
    return undefined;
  }
}

/** The kinds a role reads, of those asked for (none asked: all of them). */
export function readableKinds(role: Access, asked: readonly TimelineKind[]): TimelineKind[] {
  return (asked.length ? TIMELINE_KINDS.filter((k) => asked.includes(k)) : [...TIMELINE_KINDS]).filter((k) =>
    can(role, TIMELINE_KIND_PERMISSION[k]),
  );
}

/**
 * One page of an account's timeline: a UNION ALL of one keyset query a readable source (each at most a page and
 * one), merged in (at, kind, id) order. No upstream call. Sources the role cannot read are not queried at all.
 */
export async function accountTimeline(
  q: Queryable,
  input: { accountId: string; role: Access; kinds?: readonly TimelineKind[]; cursor?: string; limit?: number },
): Promise<TimelinePage> {
  const kinds = readableKinds(input.role, input.kinds ?? []);
  const limit = pageLimit(input.limit, 200, TIMELINE_PAGE_SIZE);
  if (!kinds.length) return { entries: [], kinds };
  const after = decode(input.cursor);
  const rows = await selectTimelineRows(q, { accountId: input.accountId, kinds, after, limit });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map((r) => toEntry(input.accountId, r)),
    nextCursor: rows.length > limit && last ? encode({ at: last.at_key, kind: last.kind, id: last.id }) : undefined,
    kinds,
  };
}
