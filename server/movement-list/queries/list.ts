import "server-only";
import {
  FINAL_STATUSES,
  movementTypeLabel,
  type MovementFilter,
  type MovementPage,
  type MovementRow,
  type MovementTotals,
} from "@/lib/schemas/movement-list";
import { resolveAccount } from "@/server/accounts/directory";
import type { Queryable } from "@/server/db/engine";
import { sqlConditions, sqlLiterals } from "@/server/db/conditions";
import { keysetPage } from "@/server/db/keyset";
import { pagedCsvRows } from "@/lib/csv";

/**
 * The movements list over the desk's read model (never an upstream call): keyset pages newest first by
 * `created_at, id`, each filter written so that an index of migration 0013 serves it, and the totals of the whole
 * filter summed in SQL (numeric: no floats on the way).
 */
export const MOVEMENT_COLUMNS_SQL = `m.id::text AS id, m.kind, m.client_request_id, m.request_id, m.account_id, m.from_account, m.to_account,
  m.direction, m.amount::text AS amount, m.currency, m.to_amount::text AS to_amount, m.to_currency, m.fx_rate::text AS fx_rate,
  m.instrument_type, m.market, m.symbol, m.quantity::text AS quantity, m.status, m.reason, m.requested_by, m.created_at, m.updated_at,
  ${["account_id", "from_account", "to_account"].map((c) => `(SELECT d.account_number FROM brokerdesk.account_directory d WHERE d.account_id = m.${c}) AS ${c}_number`).join(", ")}`;

export interface MovementDbRow {
  id: string;
  kind: string;
  client_request_id: string;
  request_id: string | null;
  account_id: string | null;
  from_account: string | null;
  to_account: string | null;
  direction: string | null;
  amount: string | null;
  currency: string | null;
  to_amount: string | null;
  to_currency: string | null;
  fx_rate: string | null;
  instrument_type: string | null;
  market: string | null;
  symbol: string | null;
  quantity: string | null;
  status: string;
  reason: string | null;
  requested_by: string | null;
  created_at: Date;
  updated_at: Date;
  account_id_number: string | null;
  from_account_number: string | null;
  to_account_number: string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function toMovementRow(r: MovementDbRow): MovementRow {
  return {
    id: r.id,
    kind: r.kind,
    clientRequestId: r.client_request_id,
    requestId: r.request_id,
    accountId: r.account_id,
    fromAccount: r.from_account,
    toAccount: r.to_account,
    direction: r.direction,
    amount: r.amount,
    currency: r.currency,
    toAmount: r.to_amount,
    toCurrency: r.to_currency,
    fxRate: r.fx_rate,
    instrumentType: r.instrument_type,
    market: r.market,
    symbol: r.symbol,
    quantity: r.quantity,
    status: r.status,
    reason: r.reason,
    requestedBy: r.requested_by,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    accountNumber: r.account_id_number,
    fromAccountNumber: r.from_account_number,
    toAccountNumber: r.to_account_number,
  };
}

/** Midnight UTC of `day` (yyyy-mm-dd) plus `plusDays`. */
function utcDay(day: string, plusDays = 0): Date {
  return new Date(new Date(`${day}T00:00:00.000Z`).getTime() + plusDays * 86_400_000);
}

/** The filter as SQL conditions numbered from `$offset+1`; `now` fixes "today" for the quick view. */
export function movementConditions(f: MovementFilter, offset = 0, now = new Date()): { where: string[]; params: unknown[] } {
  const { where, params, add } = sqlConditions(offset);
  if (f.type === "DEPOSIT" || f.type === "WITHDRAWAL") {
    where.push("m.kind = 'INSTANT_FUNDING'");
    add((p) => `m.direction = ${p}`, f.type);
  } else if (f.type) add((p) => `m.kind = ${p}`, f.type);
  if (f.status) add((p) => `m.status = ${p}`, f.status);
  // Journals keep their from-account in account_id too; naming all three lets each side's index answer (a BitmapOr).
  if (f.account) add((p) => `(m.account_id = ${p} OR m.from_account = ${p} OR m.to_account = ${p})`, f.account);
  if (f.currency) add((p) => `(m.currency = ${p} OR m.to_currency = ${p})`, f.currency);
  if (f.requester) add((p) => `m.requested_by = ${p}`, f.requester);
  if (f.from) add((p) => `m.created_at >= ${p}`, utcDay(f.from));
  if (f.to) add((p) => `m.created_at < ${p}`, utcDay(f.to, 1));
  // Written as the partial indexes' own predicates, so the planner can use them.
  switch (f.view) {
    case "not_final":
      where.push(`m.status NOT IN (${sqlLiterals(FINAL_STATUSES)})`);
      break;
    case "awaiting_approval":
      where.push("m.status = 'AWAITING_APPROVAL'");
      break;
    case "completed_today":
      where.push("m.status = 'COMPLETED'");
      add((p) => `m.updated_at >= ${p}`, utcDay(now.toISOString().slice(0, 10)));
      break;
    case "failed":
      where.push("m.status IN ('REJECTED', 'FAILED')");
      break;
  }
  return { where, params };
}

/** The account filter takes a number too: resolved to the id the rows hold, through the account directory. */
async function byId(q: Queryable, f: MovementFilter): Promise<MovementFilter> {
  return f.account ? { ...f, account: (await resolveAccount(q, f.account)).accountId } : f;
}

export async function listMovementPage(
  q: Queryable,
  filter: MovementFilter,
  page: { cursor?: string; limit: number },
): Promise<MovementPage> {
  const { where, params } = movementConditions(await byId(q, filter));
  const result = await keysetPage<MovementDbRow>(q, {
    columns: MOVEMENT_COLUMNS_SQL,
    from: "brokerdesk.money_movements m",
    where,
    params,
    sort: "m.created_at",
    tiebreak: "m.id",
    desc: true,
    cursor: page.cursor,
    limit: page.limit,
  });
  return { rows: result.rows.map(toMovementRow), nextCursor: result.nextCursor };
}

/**
 * Sums over every movement of the filter: counts of all and of completed ones; the completed ones' amounts by kind
 * (instant funding by direction) and currency, so money in and money out are never summed together and held,
 * rejected or pending amounts (which moved nothing) are left out; exchanges' bought side by currency. It reads every
 * matching row (about 130 ms for 100,000 unfiltered rows on the PostgreSQL server), so it is asked for apart from
 * the pages: paging does not sum again.
 */
export async function movementTotals(q: Queryable, filter: MovementFilter): Promise<MovementTotals> {
  const { where, params } = movementConditions(await byId(q, filter));
  const { rows } = await q.query<{
    side: string;
    kind: string | null;
    direction: string | null;
    currency: string | null;
    amount: string | null;
    count: string;
  }>(
    `WITH f AS (SELECT m.kind, m.direction, m.status, m.amount, m.currency, m.to_amount, m.to_currency FROM brokerdesk.money_movements m ${where.length ? `WHERE ${where.join(" AND ")}` : ""})
     SELECT 'all' AS side, NULL AS kind, NULL AS direction, NULL AS currency, NULL AS amount, count(*)::text AS count FROM f
     UNION ALL SELECT 'completed', NULL, NULL, NULL, NULL, count(*)::text FROM f WHERE status = 'COMPLETED'
     UNION ALL SELECT 'position', NULL, NULL, NULL, NULL, count(*)::text FROM f WHERE kind = 'POSITION_JOURNAL'
     UNION ALL SELECT 'from', kind, direction, currency, sum(amount)::text, count(*)::text FROM f
       WHERE status = 'COMPLETED' AND currency IS NOT NULL AND amount IS NOT NULL GROUP BY kind, direction, currency
     UNION ALL SELECT 'to', NULL, NULL, to_currency, sum(to_amount)::text, count(*)::text FROM f
       WHERE status = 'COMPLETED' AND to_currency IS NOT NULL AND to_amount IS NOT NULL GROUP BY to_currency`,
    params,
  );
  const countOf = (side: string) => Number(rows.find((r) => r.side === side)?.count ?? 0);
  const total = (r: (typeof rows)[number]) => ({ currency: r.currency!, amount: trimZeros(r.amount!), count: Number(r.count) });
  return {
    count: countOf("all"),
    completed: countOf("completed"),
    positionJournals: countOf("position"),
    byType: rows
      .filter((r) => r.side === "from")
      .map((r) => ({ kind: r.kind!, direction: r.direction, ...total(r) }))
      .sort(
        (a, b) =>
          a.kind.localeCompare(b.kind) || (a.direction ?? "").localeCompare(b.direction ?? "") || a.currency.localeCompare(b.currency),
      ),
    exchangedTo: rows
      .filter((r) => r.side === "to")
      .map(total)
      .sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}

/** "1500.0000" → "1500": the sum's scale is the widest operand's, which says nothing. */
const trimZeros = (d: string) => (d.includes(".") ? d.replace(/\.?0+$/, "") : d);

export const MOVEMENT_CSV_COLUMNS = [
  "Created (UTC)",
  "Type",
  "Kind",
  "Status",
  "Account",
  "Account number",
  "From account",
  "From account number",
  "To account",
  "To account number",
  "Amount",
  "Currency",
  "To amount",
  "To currency",
  "FX rate",
  "Instrument",
  "Market",
  "Symbol",
  "Quantity",
  "Requested by",
  "Reason",
  "Client request id",
  "Request id",
  "Updated (UTC)",
];

/** Every movement of the filter, newest first, read 1,000 at a time as the download wants them. */
export function movementCsvRows(q: Queryable, filter: MovementFilter): AsyncGenerator<(string | number | null)[]> {
  return pagedCsvRows(
    (cursor) => listMovementPage(q, filter, { cursor, limit: 1000 }),
    (r) => [
      r.createdAt,
      movementTypeLabel(r.kind, r.direction),
      r.kind,
      r.status,
      r.accountId,
      r.accountNumber,
      r.fromAccount,
      r.fromAccountNumber,
      r.toAccount,
      r.toAccountNumber,
      r.amount,
      r.currency,
      r.toAmount,
      r.toCurrency,
      r.fxRate,
      r.instrumentType,
      r.market,
      r.symbol,
      r.quantity,
      r.requestedBy,
      r.reason,
      r.clientRequestId,
      r.requestId,
      r.updatedAt,
    ],
  );
}
