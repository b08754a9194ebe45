import "server-only";
import Decimal from "decimal.js";
import { illegal } from "./errors";

/** Money and quantities: decimal strings on the wire, decimal.js in memory, numeric(24,8) in the database. */
export { Decimal };
export const CURRENCIES = ["USD", "HKD", "CNH"] as const;
export type Currency = (typeof CURRENCIES)[number];

const DECIMAL_RE = /^-?\d{1,16}(\.\d{1,8})?$/;

/** Parses a wire decimal (string, or a JSON number as some SDKs send). */
export function parseDecimal(value: unknown, field: string): Decimal {
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== "string" || !DECIMAL_RE.test(text)) throw illegal(`${field} must be a decimal string`);
  return new Decimal(text);
}

export function parsePositive(value: unknown, field: string, maxScale = 8): Decimal {
  const d = parseDecimal(value, field);
  if (d.lte(0)) throw illegal(`${field} must be positive`);
  if (d.decimalPlaces() > maxScale) throw illegal(`${field} allows at most ${maxScale} decimal places`);
  return d;
}

export function parseCurrency(value: unknown, field: string): Currency {
  if (typeof value !== "string" || !(CURRENCIES as readonly string[]).includes(value)) {
    throw illegal(`${field} must be one of ${CURRENCIES.join(", ")}`);
  }
  return value as Currency;
}

/** Cash amounts on the wire: two decimals. */
export const cash = (v: Decimal.Value) => new Decimal(v).toFixed(2);
/** Quantities and prices on the wire: no trailing zeros. */
export const qty = (v: Decimal.Value) => new Decimal(v).toString();
export const price = (v: Decimal.Value) => {
  const d = new Decimal(v);
  return d.decimalPlaces() <= 2 ? d.toFixed(2) : d.toString();
};
