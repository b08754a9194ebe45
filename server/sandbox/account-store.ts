import "server-only";
import { ACCOUNT_STATUSES } from "@/lib/broker-enums";
import type { Queryable } from "@/server/db/engine";
import { business } from "./errors";

/** Entity code of the sandbox's broker: virtual account numbers are "V" + ENTITY_CODE + external_account_number. */
export const ENTITY_CODE = "BD";
export const MASTER_ACCOUNT_NUMBER = "FV000123";
export const MASTER_OPTION_LEVEL = "LV3";

export { ACCOUNT_STATUSES };
/** Statuses whose cash and securities may leave the account, and those that may receive. */
const CAN_DEBIT = ["ACTIVE", "RESTRICTED"];
const CAN_CREDIT = ["CREATED", "ACTIVE", "RESTRICTED", "SUSPENDED"];

export interface AccountRef {
  account_id: string;
  account_number: string;
  account_status: string;
  account_type: string;
  is_master: boolean;
  belong_account_id: string | null;
}

/** Finds a master or virtual account by id or by account number. */
export async function findAccount(db: Queryable, idOrNumber: unknown): Promise<AccountRef | undefined> {
  if (typeof idOrNumber !== "string" || idOrNumber === "") return undefined;
  const { rows } = await db.query<AccountRef>(
    `SELECT account_id, account_number, account_status, account_type, false AS is_master, belong_account_id
       FROM sandbox.virtual_accounts WHERE account_id = $1 OR account_number = $1
     UNION ALL
     SELECT account_id, account_number, 'ACTIVE', 'MARGIN', true, NULL
       FROM sandbox.master_accounts WHERE account_id = $1 OR account_number = $1`,
    [idOrNumber],
  );
  return rows[0];
}

/** Several accounts (master or virtual, by id or number) in one statement; the map is keyed by the given values. */
export async function findAccounts(db: Queryable, idsOrNumbers: string[]): Promise<Map<string, AccountRef>> {
  const { rows } = await db.query<AccountRef & { key: string }>(
    `SELECT k.key, a.* FROM unnest($1::text[]) AS k(key) JOIN LATERAL (
       SELECT account_id, account_number, account_status, account_type, false AS is_master, belong_account_id
         FROM sandbox.virtual_accounts WHERE account_id = k.key OR account_number = k.key
       UNION ALL
       SELECT account_id, account_number, 'ACTIVE', 'MARGIN', true, NULL
         FROM sandbox.master_accounts WHERE account_id = k.key OR account_number = k.key
       LIMIT 1) a ON true`,
    [idsOrNumbers],
  );
  return new Map(rows.map(({ key, ...a }) => [key, a]));
}

export async function requireAccount(db: Queryable, idOrNumber: unknown, field = "account_id"): Promise<AccountRef> {
  const account = await findAccount(db, idOrNumber);
  if (!account) throw business("ACCOUNT_NOT_FOUND", `${field} ${String(idOrNumber ?? "")} does not exist.`);
  return account;
}

export async function masterAccount(db: Queryable): Promise<{ account_id: string; account_number: string; option_level: string }> {
  const { rows } = await db.query<{ account_id: string; account_number: string; option_level: string }>(
    "SELECT account_id, account_number, option_level FROM sandbox.master_accounts ORDER BY created_at LIMIT 1",
  );
  return rows[0];
}

/** Why a movement may not take money or securities out of (or into) this account, or undefined when it may. */
export function debitBlocked(a: AccountRef): string | undefined {
  return CAN_DEBIT.includes(a.account_status)
    ? undefined
    : `Account ${a.account_number} is ${a.account_status} and cannot send funds or securities.`;
}
export function creditBlocked(a: AccountRef): string | undefined {
  return CAN_CREDIT.includes(a.account_status)
    ? undefined
    : `Account ${a.account_number} is ${a.account_status} and cannot receive funds or securities.`;
}
