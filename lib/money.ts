import Decimal from "decimal.js";
import { z } from "zod";
import { CURRENCIES, CURRENCY_DECIMALS, type Currency } from "@/lib/broker-enums";
import { tolerantEnum } from "@/lib/enums";

/**
 * Money and quantities stay decimal strings end to end (STYLE practice 3): parsed here, added here, formatted
 * here, never through a float. Plain code: the UI, the form schemas and the Broker schemas all build on it.
 */
export { CURRENCIES, CURRENCY_DECIMALS, type Currency };

/** decimal.js with room for any amount the upstream sends (the default 20 significant digits is not). */
const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
type DecimalLike = string | Decimal;

export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

export function isCurrency(v: string): v is Currency {
  return Object.hasOwn(CURRENCY_DECIMALS, v);
}

/** How many decimals an amount in `currency` may carry; undefined for a currency the app does not know. */
export function currencyDecimals(currency: string | undefined | null): number | undefined {
  return currency && isCurrency(currency) ? CURRENCY_DECIMALS[currency] : undefined;
}

/** Decimals written in a decimal string ("12.50" → 2). */
export function decimalPlaces(v: string): number {
  const dot = v.indexOf(".");
  return dot < 0 ? 0 : v.length - dot - 1;
}

// ——— schemas ———

/** Money / quantity in a request: strictly a decimal string, never a float. */
export const decimalIn = z.string().regex(DECIMAL_PATTERN, 'must be a decimal string such as "12.50"');
export const positiveDecimalIn = decimalIn.refine((v) => new D(v).gt(0), "must be greater than zero");

/** Money / quantity in a response: a decimal string (a number is converted once, at the edge, by its digits). */
export const decimalOut = z.union([z.string(), z.number()]).transform((v) => (typeof v === "number" ? new D(v).toString() : v));

export const currencyIn = z.enum(CURRENCIES);
export const currencyOut = tolerantEnum(CURRENCIES);

export type AmountSign = "positive" | "non-negative" | "any";

/** The problem with an amount typed into a form, or undefined when it is fine. */
export function amountProblem(value: unknown, currency: string, sign: AmountSign = "positive"): string | undefined {
  if (typeof value !== "string") return "Enter the amount as text, such as 12.50";
  const v = value.trim();
  if (!DECIMAL_PATTERN.test(v)) return "Enter an amount such as 12.50";
  const decimals = currencyDecimals(currency);
  if (decimals === undefined) return `${currency} is not a currency this desk knows`;
  if (decimalPlaces(v) > decimals) return decimals === 0 ? `${currency} takes no decimals` : `At most ${decimals} decimals in ${currency}`;
  const s = decimalSign(v);
  if (sign === "positive" && s <= 0) return "Enter an amount greater than zero";
  if (sign === "non-negative" && s < 0) return "The amount cannot be negative";
  return undefined;
}

/** A form's amount in a fixed currency: a decimal string with at most that currency's decimals. */
export function amountIn(currency: Currency, sign: AmountSign = "positive") {
  return z
    .string({ message: "Enter the amount as text, such as 12.50" })
    .trim()
    .superRefine((v, ctx) => {
      const problem = amountProblem(v, currency, sign);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}

/** A form's amount with its currency chosen beside it: the decimals rule follows the chosen currency. */
export function moneyIn(sign: AmountSign = "positive") {
  return z
    .object({ amount: z.string({ message: "Enter the amount as text, such as 12.50" }).trim(), currency: currencyIn })
    .superRefine((v, ctx) => {
      const problem = amountProblem(v.amount, v.currency, sign);
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["amount"] });
    });
}

// ——— arithmetic (decimal strings in, decimal strings out) ———

export const addDecimal = (...values: DecimalLike[]): string => values.reduce<Decimal>((acc, v) => acc.plus(v), new D(0)).toString();
export const subDecimal = (a: DecimalLike, b: DecimalLike): string => new D(a).minus(b).toString();
export const mulDecimal = (a: DecimalLike, b: DecimalLike): string => new D(a).times(b).toString();
export const compareDecimal = (a: DecimalLike, b: DecimalLike): -1 | 0 | 1 => new D(a).comparedTo(b) as -1 | 0 | 1;

/**
 * Whether an amount's size (its sign ignored) lies within the bounds given, compared as decimals: an amount that is
 * not a decimal string (an upstream's malformed value) lies within no bounds, and within none given.
 */
export function sizeWithin(amount: string, min?: string, max?: string): boolean {
  if (!min && !max) return true;
  if (!DECIMAL_PATTERN.test(amount)) return false;
  const size = new D(amount).abs();
  return (!min || size.gte(min)) && (!max || size.lte(max));
}

/** -1, 0 or 1; 0 for "-0.00" as well. */
export function decimalSign(v: DecimalLike): -1 | 0 | 1 {
  const d = new D(v);
  return d.isZero() ? 0 : d.isNegative() ? -1 : 1;
}

/** Rounds to the currency's decimals (half up), as a string with exactly that many decimals. */
export function roundMoney(amount: DecimalLike, currency: Currency): string {
  return new D(amount).toFixed(CURRENCY_DECIMALS[currency], Decimal.ROUND_HALF_UP);
}

/** Rounds down to the currency's decimals (what a conversion pays: never a cent more than the rate gives). */
export function roundMoneyDown(amount: DecimalLike, currency: Currency): string {
  return new D(amount).toFixed(CURRENCY_DECIMALS[currency], Decimal.ROUND_DOWN);
}

/** What `fromAmount` converts to at `rate`, rounded down to the target currency's decimals. */
export const convertAt = (fromAmount: DecimalLike, rate: DecimalLike, to: Currency): string =>
  roundMoneyDown(new D(fromAmount).times(rate), to);

// ——— formatting ———

/**
 * A price: at least the currency's decimals, and as many more as it carries (up to 8): an order's limit may have four
 * ("0.1234 USD"), which the currency's two would show as a price it is not.
 */
export function formatPrice(price: string | null | undefined, currency?: string): string {
  if (price === null || price === undefined || price === "") return "—";
  let places = 0;
  try {
    places = new D(price).decimalPlaces();
  } catch {
    return price;
  }
  return formatMoney(price, currency, Math.max(currencyDecimals(currency) ?? 2, Math.min(places, 8)));
}

/** Money stays a decimal string until it is shown: grouped, fixed decimals (the currency's by default). */
export function formatMoney(amount: string | null | undefined, currency?: string, decimals = currencyDecimals(currency) ?? 2): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  let d: Decimal;
  try {
    d = new D(amount);
  } catch {
    return amount;
  }
  const rounded = d.toDecimalPlaces(decimals);
  const [int, frac] = rounded.abs().toFixed(decimals).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // the sign of what is shown: -0.001 at two decimals is 0.00, not -0.00
  const sign = rounded.isNegative() && !rounded.isZero() ? "-" : "";
  return `${sign}${grouped}${frac ? `.${frac}` : ""}${currency ? ` ${currency}` : ""}`;
}

/** A quantity as written, grouped, without trailing zeros (at most `maxDecimals`). */
export function formatQuantity(v: string | null | undefined, maxDecimals = 6): string {
  if (!v) return "—";
  const frac = v.includes(".") ? v.split(".")[1].replace(/0+$/, "").length : 0;
  return formatMoney(v, undefined, Math.min(frac, maxDecimals));
}
