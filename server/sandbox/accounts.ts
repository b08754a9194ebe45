import "server-only";
import type { z } from "zod";
import type { Queryable, Tx } from "@/server/db/engine";
import { ENTITY_CODE, masterAccount } from "./account-store";
import { createSchema, updateSchema, w8benSchema } from "./account-schemas";
import { business } from "./errors";
import { newId } from "./ids";
import { claim, clientRequestId, finish } from "./requests";
import { parseWith } from "./validate";

/** Virtual account create / update, shared by the HTTP routes and the seed. */
export interface AccountRow {
  account_id: string;
  account_number: string;
  external_account_number: string;
  belong_account_id: string;
  belong_account_number: string;
  account_type: string;
  account_status: string;
  trading_permissions: string[];
  option_level: string | null;
  commission_code: string | null;
  w8ben_info: z.infer<typeof w8benSchema> | null;
  china_connect_investor_info: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

const LEVEL_RANK: Record<string, number> = { LV1: 1, LV2: 2, LV3: 3, LV4: 4 };

/** option_level is required with US_OPTION_NORMAL and may never exceed the master account's level. */
async function checkOptionLevel(db: Queryable, permissions: string[], level: string | null | undefined) {
  if (permissions.includes("US_OPTION_NORMAL") && !level) {
    throw business("OPTION_LEVEL_REQUIRED", "option_level is required when trading_permissions includes US_OPTION_NORMAL.");
  }
  const master = await masterAccount(db);
  if (level && LEVEL_RANK[level] > LEVEL_RANK[master.option_level]) {
    throw business("OPTION_LEVEL_EXCEEDS_MASTER", `option_level ${level} exceeds the master account's level ${master.option_level}.`);
  }
}

const searchName = (w: AccountRow["w8ben_info"] | undefined) => (w ? `${w.first_name} ${w.last_name}`.toLowerCase() : "");

export async function getAccountRow(db: Queryable, accountId: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `SELECT v.*, m.account_number AS belong_account_number FROM sandbox.virtual_accounts v
       JOIN sandbox.master_accounts m ON m.account_id = v.belong_account_id WHERE v.account_id = $1`,
    [accountId],
  );
  return rows[0];
}

export function accountView(r: AccountRow) {
  return {
    belong_account_number: r.belong_account_number,
    belong_account_id: r.belong_account_id,
    account_number: r.account_number,
    account_id: r.account_id,
    external_account_number: r.external_account_number,
    account_type: r.account_type,
    account_status: r.account_status,
    trading_permissions: r.trading_permissions,
    option_level: r.option_level ?? undefined,
    commission_code: r.commission_code ?? undefined,
    w8ben_info: r.w8ben_info ?? undefined,
    china_connect_investor_info: r.china_connect_investor_info ?? undefined,
    create_time: new Date(r.created_at).toISOString(),
    update_time: new Date(r.updated_at).toISOString(),
  };
}

/**
 * accountView as JSON text, written by the database for a row `v` of virtual_accounts joined to its master `m`: the
 * same fields in the same order, absent when null, so a list is served without parsing rows and serialising them
 * again. All but the master's account number are kept written in `v.view_json`, refreshed by a trigger on every write
 * of the row (migration 0116: the text the list built on every read before). JSON objects stored in jsonb come back
 * in jsonb's own text form (a space after ":" and ","), the same values.
 */
export const ACCOUNT_JSON_SQL = `'{' || concat_ws(',', '"belong_account_number":' || to_json(m.account_number)::text, v.view_json) || '}'`;

const reply = (r: AccountRow, crid: string) => ({
  client_request_id: crid,
  account_number: r.account_number,
  account_id: r.account_id,
  account_status: r.account_status,
});

export async function createVirtualAccount(tx: Tx, body: Record<string, unknown>, at: Date, id = newId()) {
  const crid = clientRequestId(body);
  const input = parseWith(createSchema, body);
  const master = await masterAccount(tx);
  if (input.belong_account_id !== master.account_id) {
    throw business("ACCOUNT_NOT_FOUND", `belong_account_id ${input.belong_account_id} is not a master account of this app.`);
  }
  await checkOptionLevel(tx, input.trading_permissions, input.option_level);
  const { row, fresh } = await claim(tx, { kind: "ACCOUNT_CREATE", clientRequestId: crid, accountId: id, body, payload: {}, id }, at);
  if (!fresh) return row.result;
  const taken = await tx.query("SELECT 1 FROM sandbox.virtual_accounts WHERE external_account_number = $1", [
    input.external_account_number,
  ]);
  if (taken.rows.length) {
    throw business("DUPLICATE_EXTERNAL_ACCOUNT_NUMBER", `external_account_number ${input.external_account_number} is already used.`);
  }
  // New accounts open ACTIVE at once: the sandbox has no onboarding review step.
  await tx.query(
    `INSERT INTO sandbox.virtual_accounts (account_id, account_number, external_account_number, belong_account_id, account_type,
       account_status, trading_permissions, option_level, commission_code, w8ben_info, china_connect_investor_info, search_name,
       created_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,'ACTIVE',$6,$7,$8,$9,$10,$11,$12,$12)`,
    [
      id,
      `V${ENTITY_CODE}${input.external_account_number}`,
      input.external_account_number,
      master.account_id,
      input.account_type,
      input.trading_permissions,
      input.option_level ?? null,
      input.commission_code ?? "COMMISSION_GROUP_1",
      input.w8ben_info ? JSON.stringify(input.w8ben_info) : null,
      input.china_connect_investor_info ? JSON.stringify(input.china_connect_investor_info) : null,
      searchName(input.w8ben_info),
      at,
    ],
  );
  const result = reply((await getAccountRow(tx, id))!, crid);
  await finish(tx, row, { status: "COMPLETED", result }, at);
  return result;
}

export async function updateVirtualAccount(tx: Tx, body: Record<string, unknown>, at: Date) {
  const crid = clientRequestId(body);
  const input = parseWith(updateSchema, body);
  const current = await getAccountRow(tx, input.account_id);
  if (!current) throw business("ACCOUNT_NOT_FOUND", `account_id ${input.account_id} does not exist.`);
  const { row, fresh } = await claim(
    tx,
    { kind: "ACCOUNT_UPDATE", clientRequestId: crid, accountId: current.account_id, body, payload: {} },
    at,
  );
  if (!fresh) return row.result;
  for (const field of ["account_type", "belong_account_id", "external_account_number"] as const) {
    if (input[field] !== undefined && input[field] !== current[field]) throw business("FIELD_NOT_UPDATABLE", `${field} cannot be changed.`);
  }
  if (current.account_status === "CLOSED") throw business("ACCOUNT_CLOSED", `Account ${current.account_number} is CLOSED.`);
  if (input.account_status === "CREATED") throw business("INVALID_STATUS_TRANSITION", "An account cannot go back to CREATED.");
  const permissions = input.trading_permissions ?? current.trading_permissions;
  const level = input.option_level ?? current.option_level;
  await checkOptionLevel(tx, permissions, level);
  const w8ben = input.w8ben_info ?? current.w8ben_info;
  await tx.query(
    `UPDATE sandbox.virtual_accounts SET trading_permissions = $2, option_level = $3, commission_code = $4, w8ben_info = $5,
       china_connect_investor_info = $6, account_status = $7, search_name = $8, updated_at = $9 WHERE account_id = $1`,
    [
      current.account_id,
      permissions,
      level,
      input.commission_code ?? current.commission_code,
      w8ben ? JSON.stringify(w8ben) : null,
      JSON.stringify(input.china_connect_investor_info ?? current.china_connect_investor_info),
      input.account_status ?? current.account_status,
      searchName(w8ben),
      at,
    ],
  );
  const result = reply((await getAccountRow(tx, current.account_id))!, crid);
  await finish(tx, row, { status: "COMPLETED", result }, at);
  return result;
}
