import "server-only";
import type { Queryable } from "@/server/db/engine";
import { Decimal } from "./money";

/** Positions priced from the instrument master (the sandbox's static last prices). */
export interface ValuedPosition {
  position_id: string;
  instrument_type: "EQUITY" | "OPTION";
  market: string;
  symbol: string;
  currency: string;
  quantity: Decimal;
  cost_price: Decimal;
  last_price: Decimal;
  multiplier: number;
  /** initial margin ratio of a long position (1 for options: paid in full) */
  margin_ratio: Decimal;
  instrument_id: string | null;
  option?: { root_symbol: string; option_type: string; strike_price: string; expiration_date: string };
}

export async function valuedPositions(db: Queryable, accountId: string): Promise<ValuedPosition[]> {
  const { rows } = await db.query<{
    position_id: string;
    instrument_type: "EQUITY" | "OPTION";
    market: string;
    symbol: string;
    currency: string;
    quantity: string;
    cost_price: string;
    stock_price: string | null;
    stock_id: string | null;
    margin: string | null;
    opt_price: string | null;
    opt_id: string | null;
    multiplier: number | null;
    root_symbol: string | null;
    option_type: string | null;
    strike_price: string | null;
    expiration_date: string | null;
  }>(
    `SELECT p.position_id, p.instrument_type, p.market, p.symbol, p.currency, p.quantity, p.cost_price,
            i.last_price AS stock_price, i.instrument_id AS stock_id, i.profile->>'margin_requirement_long' AS margin,
            o.last_price AS opt_price, o.instrument_id AS opt_id, o.multiplier, o.root_symbol, o.option_type, o.strike_price,
            o.expiration_date::text AS expiration_date
       FROM sandbox.positions p
       LEFT JOIN sandbox.instruments i ON p.instrument_type = 'EQUITY' AND i.market = p.market AND i.symbol = p.symbol
       LEFT JOIN sandbox.option_contracts o ON p.instrument_type = 'OPTION' AND o.symbol = p.symbol
      WHERE p.account_id = $1 ORDER BY p.instrument_type, p.symbol`,
    [accountId],
  );
  return rows.map((r) => {
    const isOption = r.instrument_type === "OPTION";
    return {
      position_id: r.position_id,
      instrument_type: r.instrument_type,
      market: r.market,
      symbol: r.symbol,
      currency: r.currency,
      quantity: new Decimal(r.quantity),
      cost_price: new Decimal(r.cost_price),
      last_price: new Decimal((isOption ? r.opt_price : r.stock_price) ?? r.cost_price),
      multiplier: isOption ? (r.multiplier ?? 100) : 1,
      margin_ratio: new Decimal(isOption ? 1 : (r.margin ?? 1)),
      instrument_id: isOption ? r.opt_id : r.stock_id,
      option:
        isOption && r.root_symbol
          ? { root_symbol: r.root_symbol, option_type: r.option_type!, strike_price: r.strike_price!, expiration_date: r.expiration_date! }
          : undefined,
    };
  });
}

export const marketValue = (p: ValuedPosition) => p.quantity.times(p.last_price).times(p.multiplier);
export const unrealized = (p: ValuedPosition) => p.quantity.times(p.last_price.minus(p.cost_price)).times(p.multiplier);
