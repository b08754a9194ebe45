import "server-only";
import { env, masterOptionLevel } from "@/lib/env";
import type { OptionLevel } from "@/lib/schemas/virtual-account";
import { broker } from "@/server/broker";

/**
 * The omnibus master account the virtual accounts belong to. The Broker API has no master-account endpoint:
 * - its id and number come from any virtual account's `belong_account_id` / `belong_account_number` (the detail
 *   and list carry them), or from BROKER_MASTER_ACCOUNT_ID when there is no virtual account yet;
 * - the entity code (account numbers are "V" + entity code + external number) is read off the same account;
 * - its option level is not published at all: BROKER_MASTER_OPTION_LEVEL when set, else, on the embedded
 *   sandbox, the level its seed uses (lib/env.ts masterOptionLevel). When neither is known every level is
 *   offered and the upstream's 417 lands on the option level field.
 */
export interface MasterAccount {
  accountId?: string;
  accountNumber?: string;
  entityCode?: string;
  optionLevel?: OptionLevel;
  optionLevelSource: "config" | "sandbox" | "unknown";
}

const holder = globalThis as unknown as { __brokerdeskMaster?: MasterAccount; __brokerdeskMasterRead?: Promise<MasterAccount> };

function configuredLevel(): Pick<MasterAccount, "optionLevel" | "optionLevelSource"> {
  const { level, source } = masterOptionLevel();
  return { optionLevel: level as OptionLevel | undefined, optionLevelSource: source };
}

/**
 * Cached once known: a master account does not change while the app runs. Callers while it is being read (a form's
 * two accounts, the pages after a start) share the one read.
 */
export function getMasterAccount(): Promise<MasterAccount> {
  if (holder.__brokerdeskMaster?.accountId) return Promise.resolve(holder.__brokerdeskMaster);
  holder.__brokerdeskMasterRead ??= readMasterAccount().finally(() => {
    holder.__brokerdeskMasterRead = undefined;
  });
  return holder.__brokerdeskMasterRead;
}

async function readMasterAccount(): Promise<MasterAccount> {
  const level = configuredLevel();
  const { items } = await broker().listVirtualAccounts({ page_size: 1 });
  const any = items[0];
  const configuredId = env().BROKER_MASTER_ACCOUNT_ID;
  const master: MasterAccount = {
    ...level,
    accountId: any?.belong_account_id ?? configuredId,
    accountNumber: any?.belong_account_number,
    entityCode: any ? entityCodeOf(any.account_number, any.external_account_number) : undefined,
  };
  if (master.accountId) holder.__brokerdeskMaster = master;
  return master;
}

/** "VBD1000001" with external "1000001" → "BD". */
export function entityCodeOf(accountNumber?: string, external?: string): string | undefined {
  if (!accountNumber || !external || !accountNumber.startsWith("V") || !accountNumber.endsWith(external)) return undefined;
  return accountNumber.slice(1, accountNumber.length - external.length) || undefined;
}
