import "server-only";
import type { Engine, Tx } from "@/server/db/engine";
import { business } from "../errors";
import { newId } from "../ids";

/**
 * Watchlists in the sandbox's own schema (migration 0114), one set per app key. Every write runs under the key's
 * advisory lock, so the limits (20 watchlists, 1,000 instruments in all) and the name check see every committed change
 * of that key; another key's watchlist is answered as unknown, exactly like one that never existed.
 */
const MAX_WATCHLISTS = 20;
const MAX_INSTRUMENTS = 1000;

interface WatchlistRow {
  watchlist_id: string;
  name: string;
  sort: number;
  created_at: Date | string;
  updated_at: Date | string;
}
/** An instrument of a request, its market already taken from its category. */
export interface InstrumentRef {
  market: string;
  symbol: string;
  category: string;
  sort?: number;
}

const iso = (v: Date | string) => new Date(v).toISOString();
const view = (r: WatchlistRow) => ({
  watchlist_id: r.watchlist_id,
  name: r.name,
  sort: r.sort,
  create_time: iso(r.created_at),
  update_time: iso(r.updated_at),
});
const label = (i: InstrumentRef) => `${i.symbol} (${i.category})`;

function locked<T>(engine: Engine, appKey: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return engine.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`watchlists:${appKey}`]);
    return fn(tx);
  });
}

async function owned(tx: Tx, appKey: string, id: string): Promise<WatchlistRow> {
  const { rows } = await tx.query<WatchlistRow>("SELECT * FROM sandbox.watchlists WHERE watchlist_id = $1 AND app_key = $2", [id, appKey]);
  if (!rows[0]) throw business("WATCHLIST_NOT_FOUND", `Watchlist ${id} does not exist.`);
  return rows[0];
}

async function nameFree(tx: Tx, appKey: string, name: string, except = ""): Promise<void> {
  const { rows } = await tx.query(
    "SELECT 1 FROM sandbox.watchlists WHERE app_key = $1 AND lower(name) = lower($2) AND watchlist_id <> $3",
    [appKey, name, except],
  );
  if (rows.length) throw business("DUPLICATE_WATCHLIST_NAME", `A watchlist named "${name}" already exists.`);
}

const touch = (tx: Tx, id: string, now: Date) =>
  tx.query("UPDATE sandbox.watchlists SET updated_at = $2 WHERE watchlist_id = $1", [id, now]);

/** The key's watchlists, highest sort first. */
export async function listWatchlists(engine: Engine, appKey: string) {
  const { rows } = await engine.query<WatchlistRow>(
    "SELECT * FROM sandbox.watchlists WHERE app_key = $1 ORDER BY sort DESC, created_at DESC, watchlist_id",
    [appKey],
  );
  return rows.map(view);
}

/** A new watchlist; without a sort it goes on top (the highest sort + 1). */
export function createWatchlist(engine: Engine, appKey: string, input: { name: string; sort?: number }, now: Date) {
  return locked(engine, appKey, async (tx) => {
    const { rows } = await tx.query<{ n: number; top: number }>(
      "SELECT count(*)::int AS n, coalesce(max(sort), 0)::int AS top FROM sandbox.watchlists WHERE app_key = $1",
      [appKey],
    );
    if (rows[0].n >= MAX_WATCHLISTS) throw business("WATCHLIST_LIMIT_EXCEEDED", `At most ${MAX_WATCHLISTS} watchlists can be created.`);
    await nameFree(tx, appKey, input.name);
    const id = newId();
    await tx.query("INSERT INTO sandbox.watchlists VALUES ($1, $2, $3, $4, $5, $5)", [
      id,
      appKey,
      input.name,
      input.sort ?? rows[0].top + 1,
      now,
    ]);
    return { watchlist_id: id };
  });
}

export function updateWatchlist(engine: Engine, appKey: string, input: { watchlist_id: string; name?: string; sort?: number }, now: Date) {
  return locked(engine, appKey, async (tx) => {
    const row = await owned(tx, appKey, input.watchlist_id);
    if (input.name !== undefined) await nameFree(tx, appKey, input.name, row.watchlist_id);
    await tx.query("UPDATE sandbox.watchlists SET name = $2, sort = $3, updated_at = $4 WHERE watchlist_id = $1", [
      row.watchlist_id,
      input.name ?? row.name,
      input.sort ?? row.sort,
      now,
    ]);
    return true;
  });
}

/** Deletes the watchlist and its instruments (ON DELETE CASCADE). */
export function deleteWatchlist(engine: Engine, appKey: string, id: string) {
  return locked(engine, appKey, async (tx) => {
    await owned(tx, appKey, id);
    await tx.query("DELETE FROM sandbox.watchlists WHERE watchlist_id = $1", [id]);
    return true;
  });
}

/** The watchlist's instruments, highest sort first, with the master's name and exchange. */
export async function watchlistInstruments(engine: Engine, appKey: string, id: string) {
  const row = await owned(engine, appKey, id);
  const { rows } = await engine.query<{ added_at: Date | string } & Record<string, unknown>>(
    `SELECT w.instrument_id, w.symbol, i.profile->>'name' AS name, i.profile->>'exchange_code' AS exchange_code, w.category, w.sort, w.added_at
       FROM sandbox.watchlist_instruments w LEFT JOIN sandbox.instruments i ON i.market = w.market AND i.symbol = w.symbol
      WHERE w.watchlist_id = $1 ORDER BY w.sort DESC, w.added_at DESC, w.symbol`,
    [row.watchlist_id],
  );
  return { watchlist_id: row.watchlist_id, instruments: rows.map(({ added_at, ...r }) => ({ ...r, added_time: iso(added_at) })) };
}

async function members(tx: Tx, id: string): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ market: string; symbol: string; sort: number }>(
    "SELECT market, symbol, sort FROM sandbox.watchlist_instruments WHERE watchlist_id = $1",
    [id],
  );
  return new Map(rows.map((r) => [`${r.market}:${r.symbol}`, r.sort]));
}
const keyOf = (i: InstrumentRef) => `${i.market}:${i.symbol}`;

/**
 * Adds instruments of the master, all or none: an unknown one → INSTRUMENT_NOT_FOUND, one already there →
 * INSTRUMENT_ALREADY_IN_WATCHLIST, past 1,000 in all → WATCHLIST_INSTRUMENT_LIMIT_EXCEEDED. Without a sort they go on
 * top in the order given.
 */
export function addInstruments(engine: Engine, appKey: string, id: string, items: InstrumentRef[], now: Date) {
  return locked(engine, appKey, async (tx) => {
    await owned(tx, appKey, id);
    const { rows: found } = await tx.query<{ market: string; symbol: string; instrument_id: string }>(
      `SELECT i.market, i.symbol, i.instrument_id FROM sandbox.instruments i
         JOIN unnest($1::text[], $2::text[]) AS k(market, symbol) ON i.market = k.market AND i.symbol = k.symbol`,
      [items.map((i) => i.market), items.map((i) => i.symbol)],
    );
    const ids = new Map(found.map((r) => [`${r.market}:${r.symbol}`, r.instrument_id]));
    const unknown = items.find((i) => !ids.has(keyOf(i)));
    if (unknown) throw business("INSTRUMENT_NOT_FOUND", `Instrument ${label(unknown)} does not exist.`);
    const present = await members(tx, id);
    const again = items.find((i) => present.has(keyOf(i)));
    if (again) throw business("INSTRUMENT_ALREADY_IN_WATCHLIST", `${label(again)} is already in this watchlist.`);
    const { rows } = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM sandbox.watchlist_instruments WHERE app_key = $1", [
      appKey,
    ]);
    if (rows[0].n + items.length > MAX_INSTRUMENTS)
      throw business("WATCHLIST_INSTRUMENT_LIMIT_EXCEEDED", `At most ${MAX_INSTRUMENTS} instruments in all watchlists together.`);
    const top = Math.max(0, ...present.values());
    await tx.query(
      `INSERT INTO sandbox.watchlist_instruments (watchlist_id, app_key, market, symbol, category, instrument_id, sort, added_at)
       SELECT $1, $2, k.market, k.symbol, k.category, k.instrument_id, k.sort, $3
         FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::int[]) AS k(market, symbol, category, instrument_id, sort)`,
      [
        id,
        appKey,
        now,
        items.map((i) => i.market),
        items.map((i) => i.symbol),
        items.map((i) => i.category),
        items.map((i) => ids.get(keyOf(i))),
        items.map((i, n) => i.sort ?? top + items.length - n),
      ],
    );
    await touch(tx, id, now);
    return true;
  });
}

/** Every named instrument must be in the watchlist (else INSTRUMENT_NOT_IN_WATCHLIST, nothing changed). */
async function inWatchlist(tx: Tx, appKey: string, id: string, items: InstrumentRef[]): Promise<void> {
  await owned(tx, appKey, id);
  const present = await members(tx, id);
  const missing = items.find((i) => !present.has(keyOf(i)));
  if (missing) throw business("INSTRUMENT_NOT_IN_WATCHLIST", `${label(missing)} is not in this watchlist.`);
}

export function removeInstruments(engine: Engine, appKey: string, id: string, items: InstrumentRef[], now: Date) {
  return locked(engine, appKey, async (tx) => {
    await inWatchlist(tx, appKey, id, items);
    await tx.query(
      `DELETE FROM sandbox.watchlist_instruments w USING unnest($2::text[], $3::text[]) AS k(market, symbol)
        WHERE w.watchlist_id = $1 AND w.market = k.market AND w.symbol = k.symbol`,
      [id, items.map((i) => i.market), items.map((i) => i.symbol)],
    );
    await touch(tx, id, now);
    return true;
  });
}

/** Sets the sort of each named instrument (the order the list answers in); the others keep theirs. */
export function sortInstruments(engine: Engine, appKey: string, id: string, items: Required<InstrumentRef>[], now: Date) {
  return locked(engine, appKey, async (tx) => {
    await inWatchlist(tx, appKey, id, items);
    await tx.query(
      `UPDATE sandbox.watchlist_instruments w SET sort = k.sort FROM unnest($2::text[], $3::text[], $4::int[]) AS k(market, symbol, sort)
        WHERE w.watchlist_id = $1 AND w.market = k.market AND w.symbol = k.symbol`,
      [id, items.map((i) => i.market), items.map((i) => i.symbol), items.map((i) => i.sort)],
    );
    await touch(tx, id, now);
    return true;
  });
}
