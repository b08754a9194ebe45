import "server-only";
import type { Fact } from "@/server/broker/schemas/fundamentals";
import type { FactSection, FactValue } from "@/lib/schemas/instrument-tabs";

/**
 * Upstream records as the tabs show them. The records' fields are the upstream's; a column is numeric when every
 * value is a decimal, money when its name says so (prices, amounts, statement lines) and ratios when it names one.
 */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Words of a field's name that make it a count or a ratio, whatever else it names ("expense_ratio", "analyst_count"). */
const RATIO = new Set([
  "ratio",
  "rate",
  "percent",
  "pct",
  "yield",
  "margin",
  "growth",
  "change",
  "count",
  "shares",
  "number",
  "num",
  "rating",
  "score",
  "year",
  "quarter",
  "period",
  "weight",
  "return",
]);
/** Word beginnings that make it an amount of money (prices, statement lines). */
const MONEY = [
  "price",
  "amount",
  "revenue",
  "income",
  "profit",
  "loss",
  "cash",
  "eps",
  "dividend",
  "asset",
  "liabilit",
  "equity",
  "expense",
  "expenditure",
  "cost",
  "debt",
  "value",
  "nav",
  "sales",
  "ebit",
  "capex",
  "payout",
  "target",
  "turnover",
  "flow",
  "inflow",
  "outflow",
  "capital",
];
const words = (key: string) => key.toLowerCase().split(/[_\s]+/);
const isRatio = (key: string) => words(key).some((w) => RATIO.has(w) || /^return\d/.test(w));
const isMoney = (key: string) => !isRatio(key) && words(key).some((w) => MONEY.some((m) => w.startsWith(m)));
const ACRONYMS = new Set(["eps", "ttm", "pe", "pb", "nav", "etf", "id", "ipo", "ceo", "url", "ebit", "ebitda", "sec", "ytd", "usd", "hkd"]);
/** Fields that say what a record is rather than what it reports: left out when every record has the same (the instrument's own). */
const META = new Set(["symbol", "category", "currency", "instrument_id", "tuple_id"]);
/** Words of a ratio that the upstream writes as a fraction (0.0028 for 0.28 %). */
const FRACTION = new Set(["ratio", "rate", "return", "weight", "yield", "margin", "growth"]);

/** Names the upstream's field names say poorly. */
const LABELS: Record<string, string> = { available_num: "Available to borrow", short_interest_rate: "Borrow rate (annual)" };
/** Words of a field that hold a code or a calendar value, shown as written even when they are digits (2026, not 2,026). */
const VERBATIM = new Set(["year", "date", "code", "id", "period", "quarter"]);

export function label(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key.split(/[_\s]+/).filter(Boolean);
  return words.map((w, i) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : i === 0 ? w[0].toUpperCase() + w.slice(1) : w)).join(" ");
}

/** A record's scalar fields (strings, decimal strings, booleans, null); nested values are left out. */
export function scalars(f: Fact): Record<string, FactValue> {
  const out: Record<string, FactValue> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === null || typeof v === "string" || typeof v === "boolean") out[k] = v;
    else if (typeof v === "number") out[k] = String(v);
  }
  return out;
}

export function section(
  title: string,
  records: Fact[],
  { empty, currency, layout, omit = [] }: { empty: string; currency?: string; layout?: "record" | "table"; omit?: string[] },
): FactSection {
  const rows = records.map(scalars);
  const ccy = currency ?? (rows.find((r) => typeof r.currency === "string")?.currency as string | undefined);
  const keys: string[] = [];
  const constant = (k: string) => new Set(rows.map((r) => r[k])).size <= 1;
  for (const r of rows)
    for (const k of Object.keys(r)) if (!keys.includes(k) && !(META.has(k) && constant(k)) && !omit.includes(k)) keys.push(k);
  const columns = keys.map((key) => {
    const values = rows.map((r) => r[key]).filter((v) => v !== null && v !== undefined && v !== "");
    const numeric =
      values.length > 0 && values.every((v) => typeof v === "string" && DECIMAL.test(v)) && !words(key).some((w) => VERBATIM.has(w));
    // A fraction shown as a percentage: a ratio's name, every value within ±1.
    const percent =
      numeric && words(key).some((w) => FRACTION.has(w) || /^return\d/.test(w)) && values.every((v) => Math.abs(Number(v)) <= 1);
    return { key, label: label(key), numeric, money: numeric && isMoney(key), ...(percent ? { percent } : {}) };
  });
  return { title, columns, rows, currency: ccy, layout: layout ?? (rows.length === 1 ? "record" : "table"), empty };
}

const PERIOD_KEYS = ["fiscal_period", "report_period", "period", "period_end_date", "end_date", "report_date", "fiscal_year", "date"];

/**
 * A statement: line items down, periods across (newest first), as statements are read. Records without a period
 * field stay a table.
 */
export function statement(title: string, records: Fact[], empty: string): FactSection {
  const rows = records.map(scalars);
  const has = (k: string) => rows.length > 0 && rows.every((r) => typeof r[k] === "string" && r[k] !== "");
  // A fiscal period ("Q3") names a column with its year ("2026 Q3").
  const periodKey = PERIOD_KEYS.find(has);
  if (!periodKey) return section(title, records, { empty, layout: "table" });
  const withYear = periodKey === "fiscal_period" && has("fiscal_year");
  const plain = section(title, records, { empty, omit: [...PERIOD_KEYS, "type", "fiscal_quarter"] });
  const periods = rows.map((r) => (withYear ? `${r.fiscal_year} ${r[periodKey]}` : String(r[periodKey])));
  const columns = [
    { key: "item", label: "Line item", numeric: false, money: false },
    ...periods.map((p) => ({ key: p, label: p, numeric: true, money: true })),
  ];
  const lines = plain.columns
    .filter((c) => c.numeric)
    .map(
      (c) =>
        // `__money`: a line that is not an amount (shares, a ratio) is shown without the currency.
        ({ item: c.label, __money: c.money, ...Object.fromEntries(rows.map((r, i) => [periods[i], r[c.key] ?? null])) }) as Record<
          string,
          FactValue
        >,
    );
  return { title, columns, rows: lines, currency: plain.currency, layout: "table", empty };
}
