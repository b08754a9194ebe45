import "server-only";
import type { Hono } from "hono";
import { ACCOUNT_STATUSES } from "../account-store";
import { ACCOUNT_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "../account-schemas";
import { ACCOUNT_JSON_SQL, accountView, createVirtualAccount, getAccountRow, updateVirtualAccount } from "../accounts";
import type { HonoEnv, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { cursorOf, pageJson, pageSize } from "../paging";
import { route } from "../router";
import { oneOf, parseTime, required } from "../validate";

export function accountRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "createVirtualAccount", ({ body }) => sb.engine.transaction((tx) => createVirtualAccount(tx, body, sb.config.now())));
  route(app, sb, "updateVirtualAccount", ({ body }) => sb.engine.transaction((tx) => updateVirtualAccount(tx, body, sb.config.now())));
  route(app, sb, "getVirtualAccount", async ({ query }) => {
    const row = await getAccountRow(sb.engine, required(query, "account_id"));
    if (!row) throw business("ACCOUNT_NOT_FOUND", `account_id ${query.account_id} does not exist.`);
    return accountView(row);
  });
  route(app, sb, "listVirtualAccounts", async (ctx) => {
    const q = ctx.query;
    const size = pageSize(q);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace("?", `$${params.length}`));
    };
    const start = parseTime(q.start_time, "start_time");
    const end = parseTime(q.end_time, "end_time");
    if (start) add("v.created_at >= ?", start);
    if (end) add("v.created_at <= ?", end);
    // Sandbox extension: the back office's account search filters.
    // Numbers match whatever their case, names whatever their case and accents (migration 0002: folded, indexed).
    if (q.account_number) add("upper(v.account_number) = upper(?)", q.account_number);
    if (q.external_account_number) add("upper(v.external_account_number) = upper(?)", q.external_account_number);
    if (q.account_status) {
      const statuses = q.account_status.split(",");
      for (const s of statuses) oneOf(s, ACCOUNT_STATUSES, "account_status");
      add("v.account_status = ANY(?)", statuses);
    }
    if (q.account_type) add("v.account_type = ?", oneOf(q.account_type, ACCOUNT_TYPES, "account_type"));
    if (q.option_level) add("v.option_level = ?", oneOf(q.option_level, OPTION_LEVELS, "option_level"));
    if (q.trading_permission) add("? = ANY(v.trading_permissions)", oneOf(q.trading_permission, TRADING_PERMISSIONS, "trading_permission"));
    // The pattern is folded once (a sub-select, not per row) and stays usable by the trigram index (migration 0112).
    if (q.name) add("v.search_name LIKE (SELECT '%' || sandbox.search_fold(?) || '%')", q.name.replace(/[\\%_]/g, "\\$&"));
    const cursor = cursorOf(ctx, "last_account_id");
    if (cursor) {
      const { rows } = await sb.engine.query<{ created_at: Date }>(
        "SELECT created_at FROM sandbox.virtual_accounts WHERE account_id = $1",
        [cursor],
      );
      if (!rows[0]) throw illegal(`Unknown cursor account ${cursor}.`);
      params.push(rows[0].created_at, cursor);
      where.push(`(v.created_at, v.account_id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(size + 1);
    // Each account's JSON is written by the database (accountView's fields, ACCOUNT_JSON_SQL): no row parsing here.
    const { rows } = await sb.engine.query<{ id: string; json: string }>(
      `SELECT v.account_id AS id, ${ACCOUNT_JSON_SQL} AS json FROM sandbox.virtual_accounts v
         JOIN sandbox.master_accounts m ON m.account_id = v.belong_account_id
        ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY v.created_at DESC, v.account_id DESC LIMIT $${params.length}`,
      params,
    );
    return pageJson(ctx, rows, size);
  });
}
