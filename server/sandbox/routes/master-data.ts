import "server-only";
import type { Hono } from "hono";
import { calendar } from "../calendar";
import type { HonoEnv, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { list } from "../paging";
import { route } from "../router";
import { oneOf, parseDate, required } from "../validate";

export function masterDataRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  // Query: market (US|HK|CN), instrument_type (EQUITY|OPTION, OPTION only for US), and either year or start_date + end_date.
  route(app, sb, "listTradeCalendar", async (ctx) => {
    const q = ctx.query;
    const market = oneOf(required(q, "market"), ["US", "HK", "CN"] as const, "market")!;
    const type = oneOf(q.instrument_type, ["EQUITY", "OPTION"], "instrument_type") ?? "EQUITY";
    if (type === "OPTION" && market !== "US") throw business("UNSUPPORTED_CATEGORY", "Options trade in the US market only.");
    let from = parseDate(q.start_date, "start_date");
    let to = parseDate(q.end_date, "end_date");
    if (q.year) {
      if (!/^\d{4}$/.test(q.year)) throw illegal("year must be yyyy.");
      from = `${q.year}-01-01`;
      to = `${q.year}-12-31`;
    }
    if (!from || !to) {
      const year = sb.config.now().getUTCFullYear();
      from ??= `${year}-01-01`;
      to ??= `${year}-12-31`;
    }
    if (from > to) throw illegal("start_date must not be after end_date.");
    if (Date.parse(to) - Date.parse(from) > 366 * 86_400_000) throw illegal("The range may span at most 366 days.");
    return list(ctx, calendar(market, from, to));
  });
}
