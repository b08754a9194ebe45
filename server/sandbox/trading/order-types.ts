import "server-only";
import type { Decimal } from "../money";

/**
 * The order engine's validated shapes, apart from the code that builds them (order-spec.ts, options.ts), so that
 * neither has to import the other for a type.
 */

/** One leg of a US option order (options.ts resolves them). */
export interface LegSpec {
  instrument_type: "EQUITY" | "OPTION";
  symbol: string;
  instrument_id: string;
  side: "BUY" | "SELL";
  ratio: Decimal;
  multiplier: number;
  option?: { root: string; option_type: "CALL" | "PUT"; strike: string; expiry: string };
}

/** One validated entry of new_orders: the instrument resolved, numbers parsed, per-market rules applied. */
export interface OrderSpec {
  client_order_id: string;
  combo_type: string;
  instrument_type: "EQUITY" | "OPTION";
  market: "US" | "HK" | "CN";
  symbol: string;
  currency: string;
  category: string;
  instrument_id: string;
  lot_size: Decimal;
  profile: Record<string, unknown>;
  locate: Record<string, string>;
  side: "BUY" | "SELL" | "SHORT";
  order_type: string;
  entrust_type: "QTY" | "AMOUNT";
  time_in_force: "DAY" | "GTC" | "GTD";
  expire_date: string | null;
  trading_session: string;
  quantity: Decimal | null;
  total_cash_amount: Decimal | null;
  limit_price: Decimal | null;
  stop_price: Decimal | null;
  trailing_type: string | null;
  trailing_stop_step: Decimal | null;
  trailing_limit_price_offset: Decimal | null;
  trigger_price_type: string | null;
  option_strategy: string | null;
  legs: LegSpec[] | null;
  extra: Record<string, unknown>;
}

export interface AccountForOrders {
  account_id: string;
  account_number: string;
  account_status: string;
  account_type: string;
  trading_permissions: string[];
  option_level: string | null;
  commission_code: string | null;
}

/** An option contract as the exercise and the legs' resolution read it. */
export interface ContractInfo {
  symbol: string;
  root_symbol: string;
  option_type: "CALL" | "PUT";
  strike_price: string;
  expiration_date: string;
  multiplier: number;
}
