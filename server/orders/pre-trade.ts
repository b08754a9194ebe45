import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { MARKET_CURRENCY, occRoot, STOCK_CATEGORY } from "@/lib/instruments";
import { exerciseOutOfMoney, priceBandFindings, quantityFindings, type PreTradeFinding } from "@/lib/pre-trade";
import { needsLimit, needsStop } from "@/lib/schemas/order-ticket";
import type { toOrderRequest } from "@/lib/schemas/order-ticket-wire";
import type { BrokerClient } from "@/server/broker";
import { logger } from "@/server/log";

/**
 * The pre-trade checks of a ticket that read the market (rules in lib/pre-trade.ts): the quantity against the
 * instrument card and the account's permissions, the order's prices against the last price. The buying-power
 * check needs the preview and runs with it (ticket-orders.ts). Option orders are checked for buying power only
 * (their prices are net prices of legs; whole contracts are the form's rule).
 */
export async function marketFindings(
  input: Parameters<typeof toOrderRequest>[0],
  broker: BrokerClient,
  bandPercent = env().ORDERS_PRICE_BAND_PERCENT,
): Promise<PreTradeFinding[]> {
  if (input.instrument_type !== "EQUITY") return [];
  const category = STOCK_CATEGORY[input.market];
  const [snapshot, instruments, account] = await Promise.all([
    broker.getStockSnapshot({ symbols: input.symbol, category }).catch((error: unknown) => {
      logger.warn({ err: error, symbol: input.symbol }, "pre-trade: no market price");
      return [];
    }),
    broker.listStockInstruments({ symbols: [input.symbol], category, page_size: 10 }),
    broker.getVirtualAccount({ account_id: input.account_id }),
  ]);
  const instrument = instruments.items.find((i) => i.symbol === input.symbol);
  const last = snapshot.find((s) => s.symbol === input.symbol)?.price;
  const combo = input.combo !== "NORMAL";
  const prices = [
    needsLimit(input.order_type) && { field: "limit_price", name: "limit price", value: input.limit_price },
    needsStop(input.order_type) && { field: "stop_price", name: "stop price", value: input.stop_price },
    combo && input.profit_enabled && { field: "profit_limit_price", name: "take-profit price", value: input.profit_limit_price },
    combo && input.loss_enabled && { field: "loss_stop_price", name: "stop-loss price", value: input.loss_stop_price },
    input.combo === "OCO" &&
      needsLimit(input.oco_order_type) && { field: "oco_limit_price", name: "other order's limit price", value: input.oco_limit_price },
    input.combo === "OCO" &&
      needsStop(input.oco_order_type) && { field: "oco_stop_price", name: "other order's stop price", value: input.oco_stop_price },
  ].filter((p): p is { field: string; name: string; value: string } => !!p);
  return [
    ...quantityFindings(input.entrust_type === "QTY" ? input.quantity : "", {
      symbol: input.symbol,
      market: input.market,
      orderType: input.order_type,
      fractionable: instrument?.fractionable ?? false,
      fractionalAllowed: input.market !== "CN" && (account.trading_permissions ?? []).includes(`${input.market}_STOCK_FRACTIONAL`),
      lotSize: instrument?.lot_size ?? "1",
    }),
    ...priceBandFindings(
      prices,
      { symbol: input.symbol, last, currency: instrument?.currency ?? MARKET_CURRENCY[input.market] },
      bandPercent,
    ),
  ];
}

/** A refusal of findings that block: every one in words, each on its field where it has one; nothing was sent. */
export function preTradeRefusal(blocking: PreTradeFinding[]): AppError {
  const fields = Object.fromEntries(blocking.filter((f) => f.field).map((f) => [f.field as string, f.message]));
  return new AppError(
    "PRE_TRADE_CHECK",
    `pre-trade checks: ${blocking.map((f) => f.code).join(", ")}`,
    `Not placed. ${blocking.map((f) => f.message).join(" ")}`,
    Object.keys(fields).length ? fields : undefined,
  );
}

/**
 * An exercise of a contract out of the money against its underlying's last price, in words (the action asks the
 * operator to confirm it); undefined when in the money or when no price can be read (the upstream decides then).
 */
export async function outOfMoneyExercise(symbol: string, broker: BrokerClient): Promise<string | undefined> {
  const root = occRoot(symbol);
  if (!root) return undefined;
  const rows = await broker.getStockSnapshot({ symbols: root, category: "US_STOCK" }).catch((error: unknown) => {
    logger.warn({ err: error, symbol: root }, "pre-trade: no underlying price for an exercise");
    return [];
  });
  return exerciseOutOfMoney(symbol, rows.find((r) => r.symbol === root)?.price);
}
