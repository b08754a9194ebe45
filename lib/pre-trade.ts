import Decimal from "decimal.js";
import { z } from "zod";
import { occContract } from "./instruments";

/**
 * Pre-trade checks: what the desk refuses, or asks to confirm, before an order goes upstream. The rules are pure
 * (server/orders/pre-trade.ts gathers the market price, the instrument card and the buying-power effect, and the
 * place action enforces them); the ticket shows the same findings under its preview.
 *
 * Policy: a price far from the market may be overridden by the person placing the order (the override is in the
 * audited input); a negative buying power and a quantity the instrument does not take cannot (the upstream would
 * refuse them, or the desk must not send them).
 */
export const PRE_TRADE_CODES = ["PRICE_BAND", "BUYING_POWER", "QUANTITY"] as const;
export type PreTradeCode = (typeof PRE_TRADE_CODES)[number];

export const OVERRIDABLE: Record<PreTradeCode, boolean> = { PRICE_BAND: true, BUYING_POWER: false, QUANTITY: false };
export const OVERRIDABLE_CODES = PRE_TRADE_CODES.filter((c) => OVERRIDABLE[c]);

/** What a ticket may override: only codes the policy allows. */
export const overridesSchema = z.array(z.enum(OVERRIDABLE_CODES as [PreTradeCode, ...PreTradeCode[]])).max(PRE_TRADE_CODES.length);

export interface PreTradeFinding {
  code: PreTradeCode;
  /** What is wrong, in words, with the numbers. */
  message: string;
  overridable: boolean;
  /** The ticket's field it concerns, when one does. */
  field?: string;
}

const finding = (code: PreTradeCode, message: string, field?: string): PreTradeFinding => ({
  code,
  message,
  overridable: OVERRIDABLE[code],
  field,
});

const pct = (d: Decimal) => `${d.toDecimalPlaces(1).toString()} %`;

/**
 * A limit or stop price further than `bandPercent` from the market's last price. `prices`: the order's prices by
 * field with their names ("limit price"). No market price: nothing to compare (said as a finding of its own).
 */
export function priceBandFindings(
  prices: { field: string; name: string; value: string }[],
  market: { symbol: string; last: string | undefined; currency: string },
  bandPercent: number,
): PreTradeFinding[] {
  const given = prices.filter((p) => p.value !== "" && Decimal(p.value).gt(0));
  if (given.length === 0) return [];
  if (!market.last || !Decimal(market.last).gt(0)) {
    return [finding("PRICE_BAND", `No market price for ${market.symbol} to check the order's prices against.`)];
  }
  const last = Decimal(market.last);
  return given.flatMap((p) => {
    const away = Decimal(p.value).minus(last).abs().div(last).times(100);
    if (away.lte(bandPercent)) return [];
    const dir = Decimal(p.value).gt(last) ? "above" : "below";
    return [
      finding(
        "PRICE_BAND",
        `The ${p.name} ${p.value} ${market.currency} is ${pct(away)} ${dir} the last price ${last.toString()} ${market.currency} (the band is ${bandPercent} %).`,
        p.field,
      ),
    ];
  });
}

/** Buying power after the order below zero. */
export function buyingPowerFindings(after: string, currency: string): PreTradeFinding[] {
  if (!Decimal(after).isNegative()) return [];
  return [
    finding(
      "BUYING_POWER",
      `The account's ${currency} buying power would be ${after} ${currency} after this order: it cannot pay for it. Lower the quantity or fund the account first.`,
    ),
  ];
}

/**
 * A quantity the instrument does not take: fractions where the instrument card (or the account's permissions) does
 * not allow them, part lots in a market that trades whole lots.
 */
export function quantityFindings(
  quantity: string,
  o: { symbol: string; market: string; orderType: string; fractionable: boolean; fractionalAllowed: boolean; lotSize: string },
): PreTradeFinding[] {
  if (!quantity || !/^\d+(\.\d+)?$/.test(quantity)) return [];
  const q = Decimal(quantity);
  if (!q.isInteger()) {
    if (!o.fractionable) return [finding("QUANTITY", `${o.symbol} does not trade in fractions: whole shares only.`, "quantity")];
    if (!o.fractionalAllowed) return [finding("QUANTITY", "The account may not trade fractional shares: whole shares only.", "quantity")];
  }
  const lot = o.lotSize && /^\d+(\.\d+)?$/.test(o.lotSize) ? Decimal(o.lotSize) : undefined;
  if (o.market !== "US" && lot && lot.gt(1)) {
    if (o.orderType === "ODD_LOT_LIMIT" ? q.gte(lot) : !q.mod(lot).isZero())
      return [
        finding(
          "QUANTITY",
          o.orderType === "ODD_LOT_LIMIT"
            ? `An odd-lot order for ${o.symbol} is for fewer than one lot of ${lot.toString()} shares.`
            : `${o.symbol} trades in lots of ${lot.toString()} shares.`,
          "quantity",
        ),
      ];
  }
  return [];
}

/** The findings still blocking a placement: those not overridable, and overridable ones not overridden. */
export function blockingFindings(findings: PreTradeFinding[], overrides: readonly string[]): PreTradeFinding[] {
  return findings.filter((f) => !f.overridable || !overrides.includes(f.code));
}

/** An exercise of a contract out of the money (a call above the underlying's price, a put below): in words, or undefined. */
export function exerciseOutOfMoney(symbol: string, underlyingLast: string | undefined): string | undefined {
  const c = occContract(symbol);
  if (!c || !underlyingLast || !Decimal(underlyingLast).gt(0)) return undefined;
  const last = Decimal(underlyingLast);
  const strike = Decimal(c.strike);
  const out = c.type === "CALL" ? strike.gt(last) : strike.lt(last);
  if (!out) return undefined;
  return c.type === "CALL"
    ? `This call is out of the money: it buys ${c.root} at ${strike.toFixed(2)} while it trades at ${last.toFixed(2)}.`
    : `This put is out of the money: it sells ${c.root} at ${strike.toFixed(2)} while it trades at ${last.toFixed(2)}.`;
}
