/**
 * The i-th trade event of a run of fills: five fills an order (the fifth final), orders of a KO LIMIT BUY placed
 * outside the desk, as the upstream sends them. `bench:events` and the load's publisher write these at the sandbox.
 */
export function tradeFill(prefix: string, i: number, account: string, at: Date) {
  const order = Math.floor(i / 5);
  const last = i % 5 === 4;
  return {
    event_type: "TRADE",
    account_id: account,
    payload: {
      biz_type: "TRADE",
      scene_type: last ? "FINAL_FILLED" : "FILLED",
      request_id: `${prefix}-${i}`,
      account_id: account,
      order_id: `${prefix}-o${order}`,
      client_order_id: `${prefix}-c${order}`,
      combo_type: "NORMAL",
      symbol: "KO",
      category: "US_STOCK",
      side: "BUY",
      order_type: "LIMIT",
      qty: "5",
      order_status: last ? "FILLED" : "PARTIAL_FILLED",
      filled_qty: "1",
      filled_price: (60 + (i % 5) / 100).toFixed(2),
      filled_time: at.toISOString().replace("Z", "+0000"),
      actual_commission: "0.01",
      receivable_commission: "0.01",
      fees: [],
    },
  };
}
