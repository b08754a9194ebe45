import type { OrderChanges, OrderRow } from "@/lib/schemas/order-list";

/**
 * How live changes meet the rows on screen, as pure functions (the hook wires them; the tests run them in Node).
 * Rows already on screen are updated where they are, never moved; rows the reader has not seen are held back and
 * announced ("3 new orders — show") until asked for, so the list never shifts under the reader.
 */
export interface BlotterRows {
  rows: OrderRow[];
  /** More pages after the last row on screen. */
  more: boolean;
  /** Rows that arrived live and wait for "show". */
  fresh: OrderRow[];
  /** Rows on screen that no longer match the filter (shown dimmed until the list is read again). */
  gone: ReadonlySet<string>;
}

/** Newest first by listed time, then by id: the server's order. */
export function compareRows(a: OrderRow, b: OrderRow): number {
  if (a.listedAt !== b.listedAt) return a.listedAt < b.listedAt ? 1 : -1;
  return Number(b.id) - Number(a.id);
}

/** Applies one batch of changes; returns the new rows and the ids to highlight. */
export function mergeChanges(state: BlotterRows, changes: OrderChanges["rows"]): { state: BlotterRows; changed: string[] } {
  if (!changes.length) return { state, changed: [] };
  const at = new Map(state.rows.map((r, i) => [r.id, i]));
  const rows = [...state.rows];
  const fresh = [...state.fresh];
  const gone = new Set(state.gone);
  const changed: string[] = [];
  const last = state.rows.at(-1);
  for (const { matches, ...row } of changes) {
    const i = at.get(row.id);
    if (i !== undefined) {
      rows[i] = row;
      changed.push(row.id);
      if (matches) gone.delete(row.id);
      else gone.add(row.id);
      continue;
    }
    const j = fresh.findIndex((r) => r.id === row.id);
    if (!matches) {
      if (j >= 0) fresh.splice(j, 1);
      continue;
    }
    // Beyond the last row read, a row is found when scrolling there; otherwise it is new to the reader.
    if (state.more && last && compareRows(row, last) > 0) continue;
    if (j >= 0) fresh[j] = row;
    else fresh.push(row);
  }
  return { state: { ...state, rows, fresh, gone }, changed };
}

/** "Show": the held rows take their place in the list. */
export function showFresh(state: BlotterRows): BlotterRows {
  if (!state.fresh.length) return state;
  const ids = new Set(state.fresh.map((r) => r.id));
  return { ...state, rows: [...state.fresh, ...state.rows.filter((r) => !ids.has(r.id))].sort(compareRows), fresh: [] };
}

/** The next page read while scrolling, after the rows on screen (a row seen already is not repeated). */
export function appendPage(state: BlotterRows, page: { rows: OrderRow[]; nextCursor?: string }): BlotterRows {
  // Looked up by the page's ids (a few hundred), not a set of every row read: a page arriving at 100,000 rows
  // allocates nothing in proportion to them but the longer list.
  const ids = new Set(page.rows.map((r) => r.id));
  const seen = new Set<string>();
  for (const r of state.rows) if (ids.has(r.id)) seen.add(r.id);
  const fresh = state.fresh.filter((r) => !ids.has(r.id));
  return {
    ...state,
    rows: state.rows.concat(seen.size ? page.rows.filter((r) => !seen.has(r.id)) : page.rows),
    more: !!page.nextCursor,
    fresh,
  };
}
