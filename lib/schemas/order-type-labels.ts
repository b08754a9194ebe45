/**
 * Order types in words, for the ticket and for every page that lists orders. A module of its own: the blotter needs
 * the words, not the ticket's schema and rules (which would join its first load).
 */
export const ORDER_TYPE_LABELS: Record<string, string> = {
  LIMIT: "Limit",
  MARKET: "Market",
  STOP_LOSS: "Stop",
  STOP_LOSS_LIMIT: "Stop limit",
  TRAILING_STOP_LOSS: "Trailing stop",
  TRAILING_STOP_LOSS_LIMIT: "Trailing stop limit",
  TOUCH_MKT: "Market if touched",
  TOUCH_LMT: "Limit if touched",
  ENHANCED_LIMIT: "Enhanced limit",
  AT_AUCTION: "At auction",
  AT_AUCTION_LIMIT: "At-auction limit",
  ODD_LOT_LIMIT: "Odd-lot limit",
};
