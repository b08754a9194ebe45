import type { PreviewOrderInput } from "@/server/broker/schemas/orders";

type PlaceOrder = { client_order_id: string; [field: string]: unknown };

/** One US equity limit order as the Broker API's place request carries it; a test overrides what it is about. */
export function usStockOrder(overrides: Record<string, unknown> = {}): PlaceOrder {
  return {
    client_order_id: `o${Math.random().toString(36).slice(2, 14)}`,
    combo_type: "NORMAL",
    instrument_type: "EQUITY",
    market: "US",
    symbol: "AAPL",
    order_type: "LIMIT",
    entrust_type: "QTY",
    time_in_force: "DAY",
    side: "BUY",
    quantity: "1",
    limit_price: "100.00",
    support_trading_session: "CORE",
    ...overrides,
  } as PlaceOrder;
}

/** The same order typed as the desk's Broker API client takes it: one leg of a place or a preview request. */
export function clientStockOrder(overrides: Partial<PreviewOrderInput["new_orders"][number]> = {}) {
  return usStockOrder(overrides) as PreviewOrderInput["new_orders"][number];
}
