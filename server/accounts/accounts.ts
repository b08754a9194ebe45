import "server-only";
import { noteAccounts } from "./directory";
import { getMasterAccount } from "./master";
import { cache } from "react";
import { can } from "@/lib/auth/permissions";
import { NotFoundError } from "@/lib/errors";
import { searchFilter, type AccountListParams } from "@/lib/schemas/account-list-params";
import { ownerName, type AccountRow, type AccountView } from "@/lib/schemas/virtual-account-view";
import { broker, type BrokerClient, type RequestOptions } from "@/server/broker";
import type { ListVirtualAccountsInput, VirtualAccount } from "@/server/broker/schemas/accounts";
import type { Staff } from "@/server/auth/guard";
import { maskAccount } from "./masking";
import { isShared, sharedRead } from "./shared-reads";

/**
 * The server-side data functions behind the accounts pages and their GET route handlers. Every call goes through
 * the Broker client; the list asks the upstream for exactly one page per view, whatever the total.
 */
export interface AccountPage {
  rows: AccountRow[];
  nextCursor?: string;
}

/** The upstream filter of a table state (search box + filters), without paging. */
export function upstreamFilter(p: AccountListParams): ListVirtualAccountsInput {
  const search = searchFilter(p.q, p.by);
  return {
    ...(search ? { [search.field]: search.value } : {}),
    ...(p.status ? { account_status: [p.status] } : {}),
    ...(p.type ? { account_type: p.type } : {}),
    ...(p.level ? { option_level: p.level } : {}),
    ...(p.permission ? { trading_permission: p.permission } : {}),
  };
}

export function toRow(a: VirtualAccount): AccountRow {
  return {
    account_id: a.account_id,
    account_number: a.account_number ?? "",
    external_account_number: a.external_account_number ?? "",
    owner_name: ownerName(a.w8ben_info),
    account_type: a.account_type ?? "",
    account_status: a.account_status ?? "",
    trading_permissions: a.trading_permissions,
    option_level: a.option_level ?? "",
    commission_code: a.commission_code ?? "",
    create_time: a.create_time ?? "",
  };
}

/** One page of the accounts table: a single upstream call, in the upstream's order (newest first; it takes no other). */
export async function listAccountsPage(p: AccountListParams, client: BrokerClient = broker(), ro?: RequestOptions): Promise<AccountPage> {
  const input = { ...upstreamFilter(p), page_size: p.size, cursor: p.cursor || undefined };
  // Shared with the same read of other staff (./shared-reads.ts): a shared call is not ended by one reader leaving.
  const page = await sharedRead(client, `list ${JSON.stringify(input)}`, () =>
    client.listVirtualAccounts(input, isShared() ? undefined : ro),
  );
  void noteAccounts(page.items); // best effort, off the page's path
  return { rows: page.items.map(toRow), nextCursor: page.nextCursor };
}

/** The account as the viewer may see it (masked without `pii:view`); undefined when the upstream does not know it. */
export async function getAccountFor(staff: Pick<Staff, "permissions">, accountId: string): Promise<AccountView | undefined> {
  const raw = await getRawAccount(accountId);
  return raw ? maskAccount(raw, can(staff, "pii:view")) : undefined;
}

/** For route handlers: the account as the viewer may see it, or a NotFoundError (a 404). */
export async function requireAccountFor(staff: Pick<Staff, "permissions">, accountId: string): Promise<AccountView> {
  const account = await getAccountFor(staff, accountId);
  if (!account) throw accountNotFound();
  return account;
}

const accountNotFound = () => new NotFoundError("This account does not exist.", "ACCOUNT_NOT_FOUND");
const isUnknownAccount = (error: unknown) => (error as { errorCode?: string }).errorCode === "ACCOUNT_NOT_FOUND";

/** The upstream's "no such account" as the domain's typed not-found; anything else as it came. */
async function orNotFound<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw isUnknownAccount(error) ? accountNotFound() : error;
  }
}

/**
 * The id of the account with this number, for an address that names the account by what staff read out
 * (/accounts/VBD1000034): one list call filtered by the number. Undefined for anything not shaped like an account
 * number, or a number the upstream does not know.
 */
export async function accountIdOfNumber(value: string): Promise<string | undefined> {
  const search = searchFilter(value, "auto");
  if (search?.field !== "account_number") return undefined;
  const page = await broker().listVirtualAccounts({ account_number: search.value, page_size: 10 });
  return page.items.find((a) => a.account_number === search.value)?.account_id;
}

/** The upstream's detail, once per server request (the account layout and page share it); undefined when unknown. */
export const getRawAccount = cache(async (accountId: string): Promise<Omit<AccountView, "masked"> | undefined> => {
  try {
    const client = broker();
    const account = await sharedRead(client, `get ${accountId}`, () => client.getVirtualAccount({ account_id: accountId }));
    void noteAccounts([account]); // best effort, off the page's path
    return account;
  } catch (error) {
    if (isUnknownAccount(error)) return undefined;
    throw error;
  }
});

/**
 * The per-account reads answer for what the account page answers for, virtual accounts only: the omnibus master
 * account (firm capital) is a 404 here as it is there. Its id is known without an upstream call once read.
 */
async function virtualOnly<T>(accountId: string, read: () => Promise<T>): Promise<T> {
  const master = await getMasterAccount();
  if (master.accountId && master.accountId === accountId) throw accountNotFound();
  return orNotFound(read());
}

export const getAccountBalance = (accountId: string) => virtualOnly(accountId, () => broker().getBalance({ account_id: accountId }));
export const getAccountPositions = (accountId: string) => virtualOnly(accountId, () => broker().listPositions({ account_id: accountId }));
export const getAccountActivities = (accountId: string, cursor?: string) =>
  virtualOnly(accountId, () => broker().listAccountActivities({ account_id: accountId, page_size: 20, cursor: cursor || undefined }));
