import "server-only";
import { NotFoundError } from "@/lib/errors";
import type { AccountCash, FxQuote, HeldPosition, MovementAccount } from "@/lib/schemas/movement-form-data";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { ownerName } from "@/lib/schemas/virtual-account-view";
import { upstreamFilter } from "@/server/accounts/accounts";
import { getMasterAccount } from "@/server/accounts/master";
import type { Queryable } from "@/server/db/engine";
import { broker } from "@/server/broker";
import { isBrokerError } from "@/server/broker/errors";
import { rememberAccountNumbers, resolveAccount } from "@/server/accounts/directory";
import type { Currency } from "@/lib/money";

/**
 * The movement forms' reads, behind their GET routes. Unlike the accounts pages (virtual accounts only), these
 * answer for the omnibus master account too: it is one side of cash journals and the account of FX requests.
 */
export type AccountScope = "all" | "virtual";

const MASTER_NAME = "Omnibus master account";

async function masterOption(): Promise<MovementAccount | undefined> {
  const m = await getMasterAccount();
  return m.accountId
    ? {
        account_id: m.accountId,
        account_number: m.accountNumber ?? m.accountId,
        name: MASTER_NAME,
        account_status: "ACTIVE",
        is_master: true,
      }
    : undefined;
}

/** The master account (scope "all", when it matches) and the virtual accounts the search finds: one upstream list call. */
export async function searchMovementAccounts(q: string, scope: AccountScope): Promise<MovementAccount[]> {
  const search = q.trim();
  const page = await broker().listVirtualAccounts({ ...upstreamFilter(parseAccountListParams({ q: search || undefined })), page_size: 10 });
  const accounts = page.items.map((a) => ({
    account_id: a.account_id,
    account_number: a.account_number ?? "",
    name: ownerName(a.w8ben_info),
    account_status: a.account_status ?? "",
    is_master: false,
  }));
  if (scope === "virtual") return accounts;
  const master = await masterOption();
  const wanted =
    master &&
    (!search ||
      [master.account_number, master.account_id, MASTER_NAME, "master"].some((s) => s.toLowerCase().includes(search.toLowerCase())));
  return wanted ? [master, ...accounts] : accounts;
}

/** The master account as the FX request form shows it; undefined when no master account is known yet. */
export const getMasterMovementAccount = masterOption;

/** One account by its id, the master account included; an id the upstream does not know is its refusal. */
async function getMovementAccount(accountId: string): Promise<MovementAccount> {
  const master = await masterOption();
  if (master && (accountId === master.account_id || accountId === master.account_number)) return master;
  const a = await broker().getVirtualAccount({ account_id: accountId });
  return {
    account_id: a.account_id,
    account_number: a.account_number ?? "",
    name: ownerName(a.w8ben_info),
    account_status: a.account_status ?? "",
    is_master: false,
  };
}

/**
 * The account staff wrote, as its id or its number (a form opened with `?from=`, a bulk upload's row); undefined
 * when neither the directory nor the upstream knows it. A number the directory has not learnt yet is found by the
 * accounts search (one list call) and remembered.
 */
export async function findMovementAccount(q: Queryable, written: string): Promise<MovementAccount | undefined> {
  const known = await resolveAccount(q, written);
  const account =
    (await unlessRefused(getMovementAccount(known.accountId))) ??
    (await unlessRefused(searchMovementAccounts(written, "all")))?.find((a) => a.account_number === written);
  if (account?.account_number && account.account_number !== known.accountNumber) await rememberAccountNumbers(q, [account]);
  return account;
}

/** Refusals that say nothing of the account: the desk's credentials, a timeout, the upstream's rate limit. */
const NOT_ABOUT_THE_ACCOUNT = new Set([401, 403, 408, 429]);

/**
 * An id or number the upstream refuses (unknown, malformed) is as unknown as one it does not have; a refusal that
 * says nothing of the account (rate limit, credentials) is the error it is.
 */
async function unlessRefused<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isBrokerError(error) && error.status >= 400 && error.status < 500 && !NOT_ABOUT_THE_ACCOUNT.has(error.status)) return undefined;
    throw error;
  }
}

const unknownAccount = () => new NotFoundError("This account does not exist.", "ACCOUNT_NOT_FOUND");

async function known<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw (error as { errorCode?: string }).errorCode === "ACCOUNT_NOT_FOUND" ? unknownAccount() : error;
  }
}

/** The cash an account can give in one currency (master or virtual). */
export async function getAccountCash(accountId: string, currency: string): Promise<AccountCash> {
  const balance = await known(broker().getBalance({ account_id: accountId }));
  const asset = balance.account_currency_assets.find((a) => a.currency === currency);
  return { account_id: accountId, currency, available: asset?.available_withdrawal ?? "0", cash_balance: asset?.cash_balance ?? "0" };
}

/** What an account holds, for the position journal's picker (stock and option positions, long only). */
export async function getHeldPositions(accountId: string): Promise<HeldPosition[]> {
  const positions = await known(broker().listPositions({ account_id: accountId }));
  return positions
    .filter((p) => Number(p.quantity) > 0)
    .map((p) => ({
      symbol: p.symbol,
      instrument_type: p.instrument_type ?? "EQUITY",
      market: p.market ?? "US",
      quantity: p.quantity,
      currency: p.currency ?? "",
    }))
    .sort((a, b) => a.instrument_type.localeCompare(b.instrument_type) || a.symbol.localeCompare(b.symbol));
}

/** The live quote; without expiry times from the upstream, the form treats it as good for a minute. */
export async function getFxQuote(from: Currency, to: Currency): Promise<FxQuote> {
  const q = await broker().getFxRate({ from_currency: from, to_currency: to });
  const now = Date.now();
  return {
    from_currency: q.from_currency,
    to_currency: q.to_currency,
    fx_rate: q.fx_rate,
    rate_effective_time: q.rate_effective_time ?? new Date(now).toISOString(),
    rate_expire_time: q.rate_expire_time ?? new Date(now + 60_000).toISOString(),
  };
}
