import "server-only";

/**
 * Black–Scholes (European, no dividends) for the option snapshot: the implied volatility that prices the option at its
 * last price, and the greeks at that volatility. theta is per calendar day, vega and rho per 1 percentage point.
 */
export const RISK_FREE_RATE = 0.045;

// Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7).
function cdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
const pdf = (x: number) => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);

export interface OptionInputs {
  type: "CALL" | "PUT";
  spot: number;
  strike: number;
  /** years to expiry */
  years: number;
}

/** Years from `at` to an expiry date's US close (21:00 UTC), at least an hour: what the pricing and the greeks use. */
export function yearsToExpiry(expiry: string, at: Date): number {
  const years = (Date.parse(`${expiry}T21:00:00Z`) - at.getTime()) / (365 * 86_400_000);
  return Number.isFinite(years) ? Math.max(years, 1 / (365 * 24)) : 1 / (365 * 24);
}

/** The Black–Scholes price at a volatility: a call's falls as the strike rises, a put's rises. */
export function optionPrice(o: OptionInputs, vol: number): number {
  const { spot: s, strike: k, years: t } = o;
  const sd = vol * Math.sqrt(t);
  const d1 = (Math.log(s / k) + (RISK_FREE_RATE + (vol * vol) / 2) * t) / sd;
  const d2 = d1 - sd;
  const df = Math.exp(-RISK_FREE_RATE * t);
  return o.type === "CALL" ? s * cdf(d1) - k * df * cdf(d2) : k * df * cdf(-d2) - s * cdf(-d1);
}

/** Volatility (0.01 … 5) whose price is nearest the option's price, by bisection (price rises with volatility). */
export function impliedVol(o: OptionInputs, price: number): number {
  let lo = 0.01;
  let hi = 5;
  if (optionPrice(o, lo) >= price) return lo;
  if (optionPrice(o, hi) <= price) return hi;
  for (let i = 0; i < 60; i += 1) {
    const mid = (lo + hi) / 2;
    if (optionPrice(o, mid) < price) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export function greeks(o: OptionInputs, price: number) {
  const vol = impliedVol(o, price);
  const { spot: s, strike: k, years: t } = o;
  const sd = vol * Math.sqrt(t);
  const d1 = (Math.log(s / k) + (RISK_FREE_RATE + (vol * vol) / 2) * t) / sd;
  const d2 = d1 - sd;
  const df = Math.exp(-RISK_FREE_RATE * t);
  const call = o.type === "CALL";
  const decay = (-s * pdf(d1) * vol) / (2 * Math.sqrt(t));
  return {
    imp_vol: vol,
    delta: call ? cdf(d1) : cdf(d1) - 1,
    gamma: pdf(d1) / (s * sd),
    theta: (call ? decay - RISK_FREE_RATE * k * df * cdf(d2) : decay + RISK_FREE_RATE * k * df * cdf(-d2)) / 365,
    vega: (s * pdf(d1) * Math.sqrt(t)) / 100,
    rho: (call ? k * t * df * cdf(d2) : -k * t * df * cdf(-d2)) / 100,
  };
}
