import "server-only";
import type { Hono } from "hono";
import { requireAccount } from "../account-store";
import type { HonoEnv, Sandbox } from "../context";
import { midRate } from "../fx";
import { availableCash, type CashRow } from "../ledger";
import { cash, CURRENCIES, Decimal, price, qty, type Currency } from "../money";
import { list } from "../paging";
import { route } from "../router";
import { oneOf, required } from "../validate";
import { marketValue, unrealized, valuedPositions, type ValuedPosition } from "../valuation";

/** Monthly contracts expire on the third Friday; anything else is reported WEEKLY. */
function expirationType(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return d.getUTCDay() === 5 && d.getUTCDate() >= 15 && d.getUTCDate() <= 21 ? "MONTHLY" : "WEEKLY";
}

function positionView(p: ValuedPosition) {
  const base = {
    position_id: p.position_id,
    instrument_id: p.instrument_id,
    currency: p.currency,
    quantity: qty(p.quantity),
    symbol: p.symbol,
    market: p.market,
    instrument_type: p.instrument_type,
    option_strategy: p.instrument_type === "OPTION" ? "SINGLE" : undefined,
    last_price: price(p.last_price),
    cost_price: price(p.cost_price),
    market_value: cash(marketValue(p)),
    unrealized_profit_loss: cash(unrealized(p)),
  };
  if (!p.option) return base;
  return {
    ...base,
    legs: [
      {
        symbol: p.symbol,
        leg_id: p.position_id,
        quantity: qty(p.quantity),
        option_type: p.option.option_type,
        option_expire_date: p.option.expiration_date,
        option_exercise_price: price(p.option.strike_price),
        option_contract_multiplier: String(p.multiplier),
        option_contract_deliverable: `${p.multiplier} ${p.option.root_symbol}`,
        expiration_type: expirationType(p.option.expiration_date),
      },
    ],
  };
}

export function assetRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "listPositions", async (ctx) => {
    const account = await requireAccount(sb.engine, required(ctx.query, "account_id"));
    return list(ctx, (await valuedPositions(sb.engine, account.account_id)).map(positionView));
  });

  route(app, sb, "getBalance", async ({ query }) => {
    const account = await requireAccount(sb.engine, required(query, "account_id"));
    const totalCurrency = oneOf(query.total_asset_currency, CURRENCIES, "total_asset_currency") ?? "USD";
    const { rows } = await sb.engine.query<CashRow>("SELECT * FROM sandbox.cash_balances WHERE account_id = $1", [account.account_id]);
    const positions = await valuedPositions(sb.engine, account.account_id);
    const total = { cash: new Decimal(0), mv: new Decimal(0), upl: new Decimal(0), im: new Decimal(0) };
    const assets = CURRENCIES.map((currency: Currency) => {
      const row = rows.find((r) => r.currency === currency);
      const held = positions.filter((p) => p.currency === currency);
      const mv = held.reduce((s, p) => s.plus(marketValue(p)), new Decimal(0));
      const upl = held.reduce((s, p) => s.plus(unrealized(p)), new Decimal(0));
      const im = held.reduce((s, p) => s.plus(marketValue(p).times(p.margin_ratio)), new Decimal(0));
      const balance = new Decimal(row?.cash_balance ?? 0);
      const available = row ? availableCash(row) : new Decimal(0);
      // CASH accounts buy with available cash; MARGIN accounts add the loan value of what they hold.
      const buyingPower = account.account_type === "MARGIN" ? available.plus(mv.minus(im)) : available;
      const rate = midRate(currency, totalCurrency);
      total.cash = total.cash.plus(balance.times(rate));
      total.mv = total.mv.plus(mv.times(rate));
      total.upl = total.upl.plus(upl.times(rate));
      total.im = total.im.plus(im.times(rate));
      return {
        currency,
        cash_balance: cash(balance),
        settled_cash: cash(balance.minus(row?.unsettled_cash ?? 0)),
        unsettled_cash: cash(row?.unsettled_cash ?? 0),
        market_value: cash(mv),
        held_amount: cash(row?.held_amount ?? 0),
        frozen_amount: cash(row?.frozen_amount ?? 0),
        buying_power: cash(Decimal.max(buyingPower, 0)),
        unrealized_profit_loss: cash(upl),
        available_withdrawal: cash(Decimal.max(available, 0)),
        interests_unpaid: "0.00",
        init_margin: cash(im),
      };
    });
    return {
      account_id: account.account_id,
      total_asset_currency: totalCurrency,
      total_asset: cash(total.cash.plus(total.mv)),
      total_cash_balance: cash(total.cash),
      total_market_value: cash(total.mv),
      total_unrealized_profit_loss: cash(total.upl),
      init_margin: cash(total.im),
      account_currency_assets: assets,
    };
  });
}
