import "server-only";
import { listAccountsPage } from "@/server/accounts/accounts";
import { broker } from "@/server/broker";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import type { TicketAccount, TicketInstrument, TicketOptionContract } from "@/lib/schemas/order-ticket-data";
import { MARKET_CURRENCY, STOCK_CATEGORY } from "@/lib/instruments";
import type { TicketMarket } from "@/lib/schemas/order-ticket";

/**
 * What the order ticket reads while it is filled in, behind its GET route handlers: one upstream call per account
 * search and per instrument lookup (the upstream looks instruments up by exact symbol: it has no name search).
 */
export async function searchTicketAccounts(q: string) {
  const page = await listAccountsPage(parseAccountListParams({ q, size: "10" }));
  return page.rows.map((r) => ({
    account_id: r.account_id,
    account_number: r.account_number,
    external_account_number: r.external_account_number,
    owner_name: r.owner_name,
    account_type: r.account_type,
    account_status: r.account_status,
    option_level: r.option_level,
  }));
}

/** The account as the ticket needs it: level, permissions, buying power per currency, and what it holds. */
export async function getTicketAccount(accountId: string): Promise<TicketAccount> {
  const client = broker();
  const [account, balance, positions] = await Promise.all([
    client.getVirtualAccount({ account_id: accountId }),
    client.getBalance({ account_id: accountId }),
    client.listPositions({ account_id: accountId }),
  ]);
  return {
    account_id: account.account_id,
    account_number: account.account_number ?? "",
    account_type: account.account_type ?? "",
    account_status: account.account_status ?? "",
    option_level: account.option_level ?? "",
    trading_permissions: account.trading_permissions ?? [],
    buying_power: Object.fromEntries(balance.account_currency_assets.map((a) => [a.currency, a.buying_power ?? "0"])),
    held: Object.fromEntries(positions.map((p) => [p.symbol, p.quantity])),
  };
}

/** HK symbols are five digits: "700" is 00700. (China A codes are six digits, typed as they are.) */
export const normaliseSymbol = (market: string, symbol: string) => {
  const s = symbol.trim().toUpperCase();
  return market === "HK" && /^\d{1,5}$/.test(s) ? s.padStart(5, "0") : s;
};

/** One instrument by exact symbol, with the locate for US names (shown beside a short sell). */
export async function lookupInstrument(market: TicketMarket, symbol: string): Promise<TicketInstrument | null> {
  const client = broker();
  const sym = normaliseSymbol(market, symbol);
  const page = await client.listStockInstruments({ symbols: [sym], category: STOCK_CATEGORY[market], page_size: 10 });
  const i = page.items.find((x) => x.symbol === sym);
  if (!i) return null;
  const locate =
    market === "US" && i.shortable !== false ? await client.getStockLocate({ symbol: sym, market }).catch(() => undefined) : undefined;
  return {
    symbol: i.symbol,
    market,
    name: i.name ?? "",
    currency: i.currency ?? MARKET_CURRENCY[market],
    last_price: i.last_price ?? "",
    lot_size: i.lot_size ?? "1",
    shortable: i.shortable ?? false,
    fractionable: i.fractionable ?? false,
    status: i.status ?? "",
    overnight: i.overnight_trading_supported ?? false,
    locate: locate
      ? {
          shortable: locate.shortable ?? false,
          short_type: locate.short_type ?? "",
          available_num: locate.available_num ?? "",
          rate: locate.short_interest_rate ?? "",
        }
      : undefined,
  };
}

/** The option chain of an underlying (active contracts), one upstream page, by expiry then strike. */
export async function optionChain(root: string): Promise<TicketOptionContract[]> {
  const page = await broker().listOptionContracts({ root_symbol: root.trim().toUpperCase(), status: "ACTIVE", page_size: 200 });
  return page.items
    .map((c) => ({
      symbol: c.symbol,
      option_type: (c.option_type === "PUT" ? "PUT" : "CALL") as "CALL" | "PUT",
      strike_price: c.strike_price ?? "",
      expiry: (c.expiration_date ?? "").slice(0, 10),
      multiplier: c.multiplier ?? "100",
      last_price: c.last_price ?? "",
    }))
    .sort(
      (a, b) =>
        a.expiry.localeCompare(b.expiry) || Number(a.strike_price) - Number(b.strike_price) || a.option_type.localeCompare(b.option_type),
    );
}
