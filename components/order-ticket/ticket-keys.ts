/** Query keys and URLs of the ticket's GET routes. */
export const ticketKeys = {
  accounts: (q: string) => ["order-ticket", "accounts", q] as const,
  account: (id: string) => ["order-ticket", "account", id] as const,
  instrument: (market: string, symbol: string) => ["order-ticket", "instrument", market, symbol] as const,
  chain: (root: string) => ["order-ticket", "chain", root] as const,
};

export const ticketUrls = {
  accounts: (q: string) => `/api/orders/ticket/accounts?q=${encodeURIComponent(q)}`,
  account: (id: string) => `/api/orders/ticket/accounts/${encodeURIComponent(id)}`,
  instrument: (market: string, symbol: string) => `/api/orders/ticket/instrument?market=${market}&symbol=${encodeURIComponent(symbol)}`,
  chain: (root: string) => `/api/orders/ticket/option-chain?root=${encodeURIComponent(root)}`,
};
