import "server-only";
import { addDecimal, compareDecimal, formatMoney, formatQuantity } from "@/lib/money";
import {
  parseBulkJournalCsv,
  type BulkJournalBatch,
  type BulkJournalRow,
  type BulkRowError,
  type BulkJournalUpload,
} from "@/lib/schemas/bulk-journals";
import type { AppDb } from "@/server/db";
import { findMovementAccount, getAccountCash, getHeldPositions } from "@/server/movements/form-data";

/**
 * Every row of an upload checked before anything is held: the row's own schema (the one-journal form's), then what
 * needs the upstream: both accounts exist (a number or an id, written as the id the form would send), and the
 * batch's outgoing amounts summed per source account and currency (quantities per source and instrument) stay
 * within its available cash (held quantity), read once each as the forms read them (`server/movements/form-data.ts`).
 * A row past the limit is the one named, with the running total. The send checks each row again.
 */
export async function validateUpload(db: AppDb, upload: BulkJournalUpload): Promise<{ batch: BulkJournalBatch; errors: BulkRowError[] }> {
  const { rows, errors } = parseBulkJournalCsv(upload.batch_id, upload.csv);
  if (errors.some((e) => e.line === 1 || e.column === "row") && !rows.length) return { batch: { batch_id: upload.batch_id, rows }, errors };

  const accounts = await resolveAll(
    db,
    rows.flatMap((r) => [r.request.from_account, r.request.to_account]),
  );
  const resolved: BulkJournalRow[] = [];
  for (const r of rows) {
    const from = accounts.get(r.request.from_account);
    const to = accounts.get(r.request.to_account);
    if (!from) errors.push({ line: r.line, column: "from_account", message: `Unknown account ${r.request.from_account}` });
    if (!to) errors.push({ line: r.line, column: "to_account", message: `Unknown account ${r.request.to_account}` });
    if (!from || !to) continue;
    if (from === to) {
      errors.push({ line: r.line, column: "to_account", message: "Choose two different accounts" });
      continue;
    }
    resolved.push({ ...r, request: { ...r.request, from_account: from, to_account: to } } as BulkJournalRow);
  }
  const written = new Map([...accounts].map(([w, id]) => [id, w]));
  const name = (id: string) => written.get(id) ?? id;
  errors.push(...(await checkCash(resolved, name)), ...(await checkPositions(resolved, name)));
  return { batch: { batch_id: upload.batch_id, rows: resolved }, errors: errors.sort((a, b) => a.line - b.line) };
}

/** Each account as written → its id, or absent when the upstream does not know it. */
async function resolveAll(db: AppDb, written: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await inTurns([...new Set(written)], async (w) => {
    const account = await findMovementAccount(db.engine, w);
    if (account) out.set(w, account.account_id);
  });
  return out;
}

async function checkCash(rows: BulkJournalRow[], name: (id: string) => string): Promise<BulkRowError[]> {
  const cash = rows.flatMap((r) => (r.kind === "CASH_JOURNAL" ? [{ line: r.line, ...r.request }] : []));
  const keys = [...new Set(cash.map((r) => `${r.from_account}|${r.currency}`))];
  const available = new Map<string, string>();
  await inTurns(keys, async (k) => {
    const [account, currency] = k.split("|");
    available.set(k, (await getAccountCash(account, currency)).available);
  });
  const totals = new Map<string, string>();
  const errors: BulkRowError[] = [];
  for (const r of cash) {
    const k = `${r.from_account}|${r.currency}`;
    const total = addDecimal(totals.get(k) ?? "0", r.amount);
    totals.set(k, total);
    const limit = available.get(k) ?? "0";
    if (compareDecimal(total, limit) > 0)
      errors.push({
        line: r.line,
        column: "amount",
        message: `With the rows above, ${formatMoney(total, r.currency)} from ${name(r.from_account)}: more than its available cash, ${formatMoney(limit, r.currency)}`,
      });
  }
  return errors;
}

async function checkPositions(rows: BulkJournalRow[], name: (id: string) => string): Promise<BulkRowError[]> {
  const moves = rows.flatMap((r) => (r.kind === "POSITION_JOURNAL" ? [{ line: r.line, ...r.request }] : []));
  const held = new Map<string, Awaited<ReturnType<typeof getHeldPositions>>>();
  await inTurns([...new Set(moves.map((m) => m.from_account))], async (a) => void held.set(a, await getHeldPositions(a)));
  const totals = new Map<string, string>();
  const errors: BulkRowError[] = [];
  for (const m of moves) {
    const k = `${m.from_account}|${m.instrument_type}|${m.market}|${m.symbol}`;
    const total = addDecimal(totals.get(k) ?? "0", m.quantity);
    totals.set(k, total);
    const position = held
      .get(m.from_account)
      ?.find((p) => p.symbol === m.symbol && p.instrument_type === m.instrument_type && p.market === m.market);
    if (!position) errors.push({ line: m.line, column: "symbol", message: `${name(m.from_account)} holds no ${m.symbol}` });
    else if (compareDecimal(total, position.quantity) > 0)
      errors.push({
        line: m.line,
        column: "quantity",
        message: `With the rows above, ${formatQuantity(total)} ${m.symbol} from ${name(m.from_account)}: more than the ${formatQuantity(position.quantity)} it holds`,
      });
  }
  return errors;
}

/** Runs `fn` over the items four at a time: the upstream's rate budget is shared with every page. */
async function inTurns<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(4, items.length) }, worker));
}
