import "server-only";
import type { Hono } from "hono";
import { findAccounts } from "../account-store";
import type { HonoEnv, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { parsePositive, qty } from "../money";
import { movementView } from "../movements";
import { clientRequestId, requireRequest } from "../requests";
import { route } from "../router";
import { cashAmount, submit } from "./funding";
import { MARKETS } from "./instruments";

/** OCC option symbol, padded ("AAPL  260116C00200000") or compact ("AAPL260116C00200000"); returns the compact form. */
export function normaliseOcc(symbol: string): string | undefined {
  const m = /^([A-Z0-9.]{1,6})\s*(\d{6}[CP]\d{8})$/.exec(symbol.trim());
  return m ? `${m[1]}${m[2]}` : undefined;
}

async function accountsOf(sb: Sandbox, body: Record<string, unknown>) {
  const ids = [body.from_account, body.to_account].filter((v): v is string => typeof v === "string" && v !== "");
  const found = await findAccounts(sb.engine, ids);
  const want = (v: unknown, field: string) => {
    const a = typeof v === "string" ? found.get(v) : undefined;
    if (!a) throw business("ACCOUNT_NOT_FOUND", `${field} ${String(v ?? "")} does not exist.`);
    return a;
  };
  const from = want(body.from_account, "from_account");
  const to = want(body.to_account, "to_account");
  if (from.account_id === to.account_id) throw illegal("from_account and to_account must differ.");
  return { from, to };
}

export function journalRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "createCashJournal", async ({ body }) => {
    clientRequestId(body);
    const { from, to } = await accountsOf(sb, body);
    return submit(sb, "CASH_JOURNAL", body, from.account_id, {
      from_account: from.account_id,
      to_account: to.account_id,
      ...cashAmount(body),
    });
  });
  route(app, sb, "getCashJournal", async ({ query }) => movementView(await requireRequest(sb, "CASH_JOURNAL", query)));

  route(app, sb, "createPositionJournal", async ({ body }) => {
    clientRequestId(body);
    const { from, to } = await accountsOf(sb, body);
    if (from.is_master || to.is_master) throw illegal("Position journals move securities between virtual accounts only.");
    const type = body.instrument_type;
    if (type !== "EQUITY" && type !== "OPTION") throw illegal("instrument_type must be EQUITY or OPTION.");
    const market = body.market;
    if (typeof market !== "string" || !(MARKETS as readonly string[]).includes(market)) throw illegal("market must be US, HK or CN.");
    if (typeof body.symbol !== "string" || !body.symbol) throw illegal("symbol is required.");
    const quantity = parsePositive(body.quantity, "quantity");
    let symbol = body.symbol.trim();
    if (type === "OPTION") {
      const occ = normaliseOcc(symbol);
      if (!occ || market !== "US") throw illegal("Option symbols are US OCC symbols, e.g. AAPL260116C00200000.");
      if (!quantity.isInteger()) throw illegal("Option quantity must be a whole number of contracts.");
      symbol = occ;
    }
    const known =
      type === "OPTION"
        ? await sb.engine.query("SELECT 1 FROM sandbox.option_contracts WHERE symbol = $1", [symbol])
        : await sb.engine.query("SELECT 1 FROM sandbox.instruments WHERE symbol = $1 AND market = $2", [symbol, market]);
    if (!known.rows.length) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
    return submit(sb, "POSITION_JOURNAL", body, from.account_id, {
      from_account: from.account_id,
      to_account: to.account_id,
      instrument_type: type,
      market,
      symbol,
      quantity: qty(quantity),
    });
  });
  route(app, sb, "getPositionJournal", async ({ query }) => movementView(await requireRequest(sb, "POSITION_JOURNAL", query)));
}
