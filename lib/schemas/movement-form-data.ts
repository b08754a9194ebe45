/**
 * What the movement forms read while they are filled in (their GET routes under /api/movements/forms), as plain
 * types for the browser. Money and quantities are decimal strings.
 */
export interface MovementAccount {
  account_id: string;
  account_number: string;
  /** The owner's name, or "Omnibus master account". */
  name: string;
  account_status: string;
  is_master: boolean;
}

/** An account's cash in one currency: what it can send (journals, exchanges) or withdraw. */
export interface AccountCash {
  account_id: string;
  currency: string;
  /** The upstream's `available_withdrawal`: the most a journal, exchange or withdrawal may take. */
  available: string;
  cash_balance: string;
}

export interface HeldPosition {
  symbol: string;
  instrument_type: string;
  market: string;
  quantity: string;
  currency: string;
}

export interface FxQuote {
  from_currency: string;
  to_currency: string;
  fx_rate: string;
  rate_effective_time: string;
  rate_expire_time: string;
}

/** Query keys and URLs of the forms' GET routes. */
export const movementFormKeys = {
  accounts: (q: string, scope: string) => ["movement-forms", "accounts", scope, q] as const,
  cash: (account: string, currency: string) => ["movement-forms", "cash", account, currency] as const,
  positions: (account: string) => ["movement-forms", "positions", account] as const,
  quote: (from: string, to: string) => ["movement-forms", "quote", from, to] as const,
};

export const movementFormUrls = {
  accounts: (q: string, scope: string) => `/api/movements/forms/accounts?scope=${scope}&q=${encodeURIComponent(q)}`,
  cash: (account: string, currency: string) => `/api/movements/forms/cash?account=${encodeURIComponent(account)}&currency=${currency}`,
  positions: (account: string) => `/api/movements/forms/positions?account=${encodeURIComponent(account)}`,
  quote: (from: string, to: string) => `/api/movements/forms/quote?from=${from}&to=${to}`,
};
