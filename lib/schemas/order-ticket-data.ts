import type { PreTradeFinding } from "@/lib/pre-trade";
import type { AccountRow } from "./virtual-account-view";
import type { InstrumentMarket } from "@/lib/instruments";

/** What the ticket's GET routes answer (plain types for the browser). Money and quantities are decimal strings. */
export type TicketAccountHit = Pick<
  AccountRow,
  "account_id" | "account_number" | "external_account_number" | "owner_name" | "account_type" | "account_status" | "option_level"
>;

export interface TicketAccount {
  account_id: string;
  account_number: string;
  account_type: string;
  account_status: string;
  option_level: string;
  trading_permissions: string[];
  /** Buying power by currency. */
  buying_power: Record<string, string>;
  /** Quantity held by symbol (stocks and OCC option symbols). */
  held: Record<string, string>;
}

export interface TicketInstrument {
  symbol: string;
  market: InstrumentMarket;
  name: string;
  currency: string;
  last_price: string;
  lot_size: string;
  shortable: boolean;
  fractionable: boolean;
  status: string;
  overnight: boolean;
  locate?: { shortable: boolean; short_type: string; available_num: string; rate: string };
}

export interface TicketOptionContract {
  symbol: string;
  option_type: "CALL" | "PUT";
  strike_price: string;
  expiry: string;
  multiplier: string;
  last_price: string;
}

/** What a preview tells the operator: the upstream's estimate and the buying-power effect. */
export interface TicketPreview {
  currency: string;
  estimated_cost: string;
  estimated_fee: string;
  commission: { actual: string; receivable: string };
  fees: { type: string; actual: string; receivable: string }[];
  buying_power: string;
  /** What the order holds of the buying power while it works (0 for a sell of held shares). */
  hold: string;
  buying_power_after: string;
  /** The pre-trade checks' findings (lib/pre-trade.ts): empty when the order may be placed as it is. */
  checks: PreTradeFinding[];
}

export interface TicketPlaced {
  account_id: string;
  client_order_id: string;
  orders: { client_order_id: string; order_id?: string; combo_type: string; side: string; order_type: string }[];
}
