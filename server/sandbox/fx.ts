import "server-only";
import { Decimal, type Currency } from "./money";

/**
 * The sandbox's FX desk: fixed mid rates against USD and a 0.1 % spread on conversions. A quote is effective
 * from the start of the current minute and expires at the start of the next one.
 */
const UNITS_PER_USD: Record<Currency, string> = { USD: "1", HKD: "7.8", CNH: "7.2" };
export const FX_SPREAD = new Decimal("0.001");
/** Instant exchanges let the caller name to_amount; it may not beat the mid rate by more than this. */
export const INSTANT_TOLERANCE = new Decimal("0.01");

export function midRate(from: Currency, to: Currency): Decimal {
  return new Decimal(UNITS_PER_USD[to]).div(UNITS_PER_USD[from]);
}

/** The rate a client gets converting `from` into `to` (6 decimals, spread taken). */
export function clientRate(from: Currency, to: Currency): Decimal {
  if (from === to) return new Decimal(1);
  return midRate(from, to).times(new Decimal(1).minus(FX_SPREAD)).toDecimalPlaces(6, Decimal.ROUND_DOWN);
}

export function quote(from: Currency, to: Currency, now: Date, lifetimeSeconds = 60) {
  const windowMs = lifetimeSeconds * 1000;
  const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  return {
    from_currency: from,
    to_currency: to,
    fx_rate: clientRate(from, to).toFixed(6),
    rate_effective_time: start.toISOString(),
    rate_expire_time: new Date(start.getTime() + windowMs).toISOString(),
  };
}

export function convert(amount: Decimal.Value, from: Currency, to: Currency): Decimal {
  return new Decimal(amount).times(clientRate(from, to)).toDecimalPlaces(2, Decimal.ROUND_DOWN);
}
