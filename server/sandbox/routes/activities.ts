import "server-only";
import type { Hono } from "hono";
import { ACTIVITY_TYPES } from "@/lib/broker-enums";
import { requireAccount } from "../account-store";
import type { HonoEnv, Sandbox } from "../context";
import { illegal } from "../errors";
import { cash, qty } from "../money";
import { cursorOf, page, pageSize } from "../paging";
import { route } from "../router";
import { parseTime, required } from "../validate";

interface ActivityRow {
  id: string;
  account_id: string;
  account_number: string;
  activity_type: string;
  activity_sub_type: string;
  currency: string;
  market: string | null;
  symbol: string | null;
  quantity: string | null;
  net_amount: string;
  trade_date: string;
  biz_time: Date;
  description: string | null;
}

export function activityRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "listAccountActivities", async (ctx) => {
    const q = ctx.query;
    const account = await requireAccount(sb.engine, required(q, "account_id"));
    const size = pageSize(q);
    const params: unknown[] = [account.account_id];
    const where = ["a.account_id = $1"];
    const add = (sql: string, v: unknown) => (params.push(v), where.push(sql.replace("?", `$${params.length}`)));
    // activity_types (facts sheet) and activity_type (spec) are both accepted; each takes a comma-separated list.
    const types = (q.activity_types ?? q.activity_type)?.split(",").filter(Boolean);
    if (types?.length) {
      for (const t of types) if (!(ACTIVITY_TYPES as readonly string[]).includes(t)) throw illegal(`activity_type ${t} is unknown.`);
      add("a.activity_type = ANY(?)", types);
    }
    if (q.activity_sub_type) add("a.activity_sub_type = ANY(?)", q.activity_sub_type.split(","));
    const start = parseTime(q.start_time, "start_time");
    const end = parseTime(q.end_time, "end_time");
    if (start) add("a.biz_time >= ?", start);
    if (end) add("a.biz_time <= ?", end);
    const cursor = cursorOf(ctx, "last_activity_id");
    if (cursor) {
      const { rows } = await sb.engine.query<{ biz_time: Date }>(
        "SELECT biz_time FROM sandbox.activities WHERE id = $1 AND account_id = $2",
        [cursor, account.account_id],
      );
      if (!rows[0]) throw illegal(`Unknown cursor activity ${cursor}.`);
      params.push(rows[0].biz_time, cursor);
      where.push(`(a.biz_time, a.id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(size + 1, account.account_number);
    const { rows } = await sb.engine.query<ActivityRow>(
      `SELECT a.id, a.account_id, $${params.length}::text AS account_number, a.activity_type, a.activity_sub_type, a.currency, a.market,
              a.symbol, a.quantity, a.net_amount, a.trade_date::text AS trade_date, a.biz_time, a.description
         FROM sandbox.activities a WHERE ${where.join(" AND ")}
        ORDER BY a.biz_time DESC, a.id DESC LIMIT $${params.length - 1}`,
      params,
    );
    const items = rows.map((r) => ({
      id: r.id,
      account_id: r.account_id,
      account_number: r.account_number,
      activity_type: r.activity_type,
      activity_sub_type: r.activity_sub_type,
      currency: r.currency,
      market: r.market ?? undefined,
      symbol: r.symbol ?? undefined,
      quantity: r.quantity === null ? undefined : qty(r.quantity),
      trade_date: r.trade_date,
      net_amount: cash(r.net_amount),
      biz_time: new Date(r.biz_time).toISOString(),
      description: r.description ?? undefined,
    }));
    return page(ctx, items, size, (a) => a.id);
  });
}
