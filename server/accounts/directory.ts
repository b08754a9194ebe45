import "server-only";
import type { BrokerClient } from "@/server/broker/client";
import { getDb } from "@/server/db";
import type { Queryable } from "@/server/db/engine";
import { logger } from "@/server/log";
import { selectAccountByIdOrNumber, selectAccountNumbers, upsertAccountNumbers } from "./queries";

/**
 * Account numbers by account id, learnt from upstream answers the desk reads anyway (a list page, a detail), so a
 * page that holds only ids can name accounts without calling the upstream. Remembering is best effort: a failure
 * is logged, never the reader's problem.
 */
export async function rememberAccountNumbers(
  q: Queryable,
  accounts: { account_id?: string | null; account_number?: string | null }[],
): Promise<void> {
  const known = accounts.filter((a): a is { account_id: string; account_number: string } => !!a.account_id && !!a.account_number);
  if (!known.length) return;
  const ids = known.map((a) => a.account_id);
  const numbers = known.map((a) => a.account_number);
  await upsertAccountNumbers(q, ids, numbers);
}

/** rememberAccountNumbers on the app's database, for readers of upstream answers: never throws. */
export async function noteAccounts(accounts: { account_id?: string | null; account_number?: string | null }[]): Promise<void> {
  try {
    await rememberAccountNumbers((await getDb()).engine, accounts);
  } catch (error) {
    logger.warn({ err: error }, "account numbers not remembered");
  }
}

/** The known numbers of these account ids (ids the desk has not seen are absent). */
export async function accountNumbers(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows = await selectAccountNumbers(q, unique);
  return new Map(rows.map((r) => [r.account_id, r.account_number]));
}

/** An account number or id → the account id, through the directory; a value it does not know is taken as an id. */
export async function resolveAccount(q: Queryable, account: string): Promise<{ accountId: string; accountNumber: string | null }> {
  const row = await selectAccountByIdOrNumber(q, account);
  return row ? { accountId: row.account_id, accountNumber: row.account_number } : { accountId: account, accountNumber: null };
}

/**
 * Makes the directory know these accounts: those it lacks are read from the upstream (one detail call each) and
 * remembered. For text written once and kept, such as a held request's summary, whose accounts may have come from an
 * assistant or the command line rather than a page that listed them. Best effort: an account the upstream does not
 * answer stays unknown.
 */
export async function learnAccountNumbers(q: Queryable, ids: string[], broker: Pick<BrokerClient, "getVirtualAccount">): Promise<void> {
  try {
    const known = await accountNumbers(q, ids);
    const missing = [...new Set(ids.filter((id) => id && !known.has(id)))];
    const found = await Promise.all(missing.map((account_id) => broker.getVirtualAccount({ account_id }).catch(() => undefined)));
    await rememberAccountNumbers(
      q,
      found.filter((a) => a !== undefined),
    );
  } catch (error) {
    logger.warn({ err: error }, "account numbers not learnt");
  }
}

/**
 * `text` with each of these account ids that the directory knows written as its account number, the name staff use
 * (e.g. a held request's summary). Best effort: on a failure the text is returned as it is.
 */
export async function withAccountNumbers(q: Queryable, text: string, ids: string[]): Promise<string> {
  try {
    const numbers = await accountNumbers(q, ids);
    let out = text;
    for (const [id, number] of numbers) out = out.split(id).join(number);
    return out;
  } catch (error) {
    logger.warn({ err: error }, "account numbers not read");
    return text;
  }
}
