/**
 * The instrument page's view from the desk's own books (the read model): open orders and recent executions across
 * accounts, positions of the accounts whose activities the desk has read, alerts on the symbol. Accounts are named
 * by number where the account directory knows them.
 */
export interface DeskOrder {
  id: string;
  accountId: string;
  accountNumber: string | null;
  clientOrderId: string;
  symbol: string | null;
  side: string | null;
  orderType: string | null;
  status: string;
  quantity: string | null;
  filledQuantity: string | null;
  limitPrice: string | null;
  stopPrice: string | null;
  listedAt: string;
}

export interface DeskExecution {
  id: string;
  orderId: string;
  accountId: string;
  accountNumber: string | null;
  symbol: string | null;
  side: string | null;
  quantity: string;
  price: string;
  filledAt: string;
}

/** An account's net quantity of the symbol over the activities the desk has read of it (trades and position journals). */
export interface DeskPosition {
  accountId: string;
  accountNumber: string | null;
  quantity: string;
  /** The activities read up to this moment. */
  asOf: string | null;
}

export interface DeskAlert {
  id: string;
  accountId: string | null;
  accountNumber: string | null;
  summary: string;
  status: string;
  raisedAt: string;
}

/** Each part is absent when the viewer's role may not read it. */
export interface DeskViewData {
  orders?: DeskOrder[];
  executions?: DeskExecution[];
  positions?: DeskPosition[];
  alerts?: DeskAlert[];
}
