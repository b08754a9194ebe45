import Decimal from "decimal.js";

/** Formatting shared by server and browser: one place for dates, money and quantities. */
const dateTime = new Intl.DateTimeFormat("en-GB", {
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
  timeZone: "UTC",
});

export function formatDateTime(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? String(value) : `${dateTime.format(d)} UTC`;
}

/** Money stays a decimal string until it is shown: grouped, fixed decimals, never through a float. */
export function formatMoney(amount: string | null | undefined, currency?: string, decimals = 2): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  let d: Decimal;
  try {
    d = new Decimal(amount);
  } catch {
    return amount;
  }
  const [int, frac] = d.abs().toFixed(decimals).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const sign = d.isNegative() && !d.isZero() ? "-" : "";
  return `${sign}${grouped}${frac ? `.${frac}` : ""}${currency ? ` ${currency}` : ""}`;
}
