import "server-only";
import { isTradingDay } from "../calendar";
import { idFrom } from "../ids";

/**
 * The sandbox's US futures catalog: five product classes, fifteen products with their exchange's contract terms, and
 * the contracts listed on a given day, computed from that day (never stored): each product lists its next contracts in
 * its month cycle whose last trading day has not passed, so the catalog is never expired. Dates follow the
 * exchanges' rules on the US trading calendar (calendar.ts): equity index on the third Friday, crude three business
 * days before the 25th of the month before, and so on (`lastTradingDay`). Symbols are the product code, the month
 * letter and the year's last digit (ESZ6); `<CODE>main` is the main (continuous) contract, the front contract until
 * it nears its end.
 */
export const FUTURES_CATEGORY = "US_FUTURES";

export const PRODUCT_CLASSES = [
  { product_class_id: 1, product_class_name: "Equity Index" },
  { product_class_id: 2, product_class_name: "Energy" },
  { product_class_id: 3, product_class_name: "Metals" },
  { product_class_id: 4, product_class_name: "Interest Rates" },
  { product_class_id: 5, product_class_name: "Currencies" },
] as const;

type Rule = "index" | "crude" | "natgas" | "metal" | "note" | "five-year" | "fx";

export interface FuturesProduct {
  code: string;
  name: string;
  classId: number;
  /** MIC of the exchange, as the instrument master's exchange codes. */
  exchange: string;
  /** Contract size in `unit`, the price's multiplier (value of one point, USD) and the minimum price move. */
  size: string;
  unit: string;
  multiplier: string;
  minTick: string;
  /** Listed month letters and how many contracts are listed at once. */
  cycle: string;
  listed: number;
  rule: Rule;
}

const QUARTERS = "HMUZ";
const EVERY_MONTH = "FGHJKMNQUVXZ";
const p = (...a: [string, string, number, string, string, string, string, string, string, number, Rule]): FuturesProduct => {
  const [code, name, classId, exchange, size, unit, multiplier, minTick, cycle, listed, rule] = a;
  return { code, name, classId, exchange, size, unit, multiplier, minTick, cycle, listed, rule };
};

export const PRODUCTS: FuturesProduct[] = [
  p("ES", "E-mini S&P 500", 1, "XCME", "50", "USD x index", "50", "0.25", QUARTERS, 5, "index"),
  p("NQ", "E-mini Nasdaq-100", 1, "XCME", "20", "USD x index", "20", "0.25", QUARTERS, 5, "index"),
  p("YM", "E-mini Dow ($5)", 1, "XCBT", "5", "USD x index", "5", "1", QUARTERS, 5, "index"),
  p("RTY", "E-mini Russell 2000", 1, "XCME", "50", "USD x index", "50", "0.1", QUARTERS, 5, "index"),
  p("CL", "Crude Oil", 2, "XNYM", "1000", "barrels", "1000", "0.01", EVERY_MONTH, 12, "crude"),
  p("NG", "Henry Hub Natural Gas", 2, "XNYM", "10000", "MMBtu", "10000", "0.001", EVERY_MONTH, 12, "natgas"),
  p("GC", "Gold", 3, "XCEC", "100", "troy ounces", "100", "0.1", "GJMQVZ", 6, "metal"),
  p("SI", "Silver", 3, "XCEC", "5000", "troy ounces", "5000", "0.005", "HKNUZ", 5, "metal"),
  p("HG", "Copper", 3, "XCEC", "25000", "pounds", "25000", "0.0005", "HKNUZ", 5, "metal"),
  p("ZN", "10-Year T-Note", 4, "XCBT", "100000", "USD face value", "1000", "0.015625", QUARTERS, 3, "note"),
  p("ZB", "U.S. Treasury Bond", 4, "XCBT", "100000", "USD face value", "1000", "0.03125", QUARTERS, 3, "note"),
  p("ZF", "5-Year T-Note", 4, "XCBT", "100000", "USD face value", "1000", "0.0078125", QUARTERS, 3, "five-year"),
  p("6E", "Euro FX", 5, "XCME", "125000", "EUR", "125000", "0.00005", QUARTERS, 4, "fx"),
  p("6J", "Japanese Yen", 5, "XCME", "12500000", "JPY", "12500000", "0.0000005", QUARTERS, 4, "fx"),
  p("6B", "British Pound", 5, "XCME", "62500", "GBP", "62500", "0.0001", QUARTERS, 4, "fx"),
];

export const classOf = (id: number) => PRODUCT_CLASSES.find((c) => c.product_class_id === id)!;
export const settlementOf = (product: FuturesProduct) => (product.rule === "index" ? "CASH" : "PHYSICAL");

// Calendar arithmetic on UTC dates (yyyy-MM-dd) over the US trading calendar.
const DAY = 86_400_000;
const at = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
const text = (d: Date) => d.toISOString().slice(0, 10);
const business = (d: Date) => isTradingDay("US", d);
/** The business day `n` business days before (n < 0) or after (n > 0) `d`; n = 0: `d` itself, or the one before. */
function shift(d: Date, n: number): Date {
  let cur = d;
  if (n === 0) {
    while (!business(cur)) cur = new Date(cur.getTime() - DAY);
    return cur;
  }
  const step = n > 0 ? DAY : -DAY;
  for (let left = Math.abs(n); left > 0;) {
    cur = new Date(cur.getTime() + step);
    if (business(cur)) left -= 1;
  }
  return cur;
}
function onOrAfter(d: Date): Date {
  let cur = d;
  while (!business(cur)) cur = new Date(cur.getTime() + DAY);
  return cur;
}
const lastBusinessDay = (y: number, m: number) => shift(at(y, m + 1, 1), -1);
/** The n-th given weekday (0 = Sunday) of a month. */
function nthWeekday(y: number, m: number, weekday: number, n: number): Date {
  const first = at(y, m, 1);
  return at(y, m, 1 + ((weekday - first.getUTCDay() + 7) % 7) + 7 * (n - 1));
}
const monthBefore = (y: number, m: number) => (m === 1 ? [y - 1, 12] : [y, m - 1]);

/** Last trading day, first notice day (physical delivery) and settlement date of a product's contract month. */
function terms(rule: Rule, y: number, m: number): { last: Date; firstNotice?: Date; settlement: Date } {
  const [py, pm] = monthBefore(y, m);
  switch (rule) {
    case "index": {
      const last = shift(nthWeekday(y, m, 5, 3), 0);
      return { last, settlement: last };
    }
    case "crude": {
      const last = shift(shift(at(py, pm, 25), 0), -3);
      return { last, firstNotice: shift(last, 1), settlement: lastBusinessDay(y, m) };
    }
    case "natgas": {
      const last = shift(at(y, m, 1), -3);
      return { last, firstNotice: shift(last, 1), settlement: lastBusinessDay(y, m) };
    }
    case "metal":
      return { last: shift(lastBusinessDay(y, m), -2), firstNotice: lastBusinessDay(py, pm), settlement: lastBusinessDay(y, m) };
    case "note":
      return { last: shift(lastBusinessDay(y, m), -7), firstNotice: lastBusinessDay(py, pm), settlement: lastBusinessDay(y, m) };
    case "five-year": {
      const last = lastBusinessDay(y, m);
      return { last, firstNotice: lastBusinessDay(py, pm), settlement: shift(last, 3) };
    }
    case "fx": {
      const third = nthWeekday(y, m, 3, 3);
      return { last: shift(third, -2), settlement: third };
    }
  }
}

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export interface FuturesContract {
  instrument_id: string;
  contract_id: string;
  symbol: string;
  code: string;
  name: string;
  category: string;
  product_class_id: number;
  exchange_code: string;
  currency: "USD";
  contract_type: "MONTHLY" | "MAIN";
  contract_month: string;
  first_trading_date: string;
  last_trading_date: string;
  first_notice_date?: string;
  settlement_date: string;
  settlement: "CASH" | "PHYSICAL";
  size: string;
  unit: string;
  multiplier: string;
  min_tick: string;
  /** OC tradable; CO liquidate only (a physically delivered contract from two business days before first notice). */
  status: "OC" | "CO";
}

/** A product's listed monthly contracts on `today` (yyyy-MM-dd), nearest first. */
export function contractsOf(product: FuturesProduct, today: string): FuturesContract[] {
  const now = new Date(`${today}T00:00:00Z`);
  const out: FuturesContract[] = [];
  const spacing = 12 / product.cycle.length;
  for (let k = 0; out.length < product.listed && k < 48; k += 1) {
    const y = now.getUTCFullYear() + Math.floor((now.getUTCMonth() + k) / 12);
    const m = ((now.getUTCMonth() + k) % 12) + 1;
    const letter = EVERY_MONTH[m - 1];
    if (!product.cycle.includes(letter)) continue;
    const t = terms(product.rule, y, m);
    if (text(t.last) < today) continue;
    // Listed one cycle step before the furthest listed contract reaches it: the first business day of that month.
    const back = y * 12 + (m - 1) - (product.listed + 1) * spacing;
    const listedOn = onOrAfter(at(Math.floor(back / 12), (back % 12) + 1, 1));
    const symbol = `${product.code}${letter}${y % 10}`;
    const month = `${y}${String(m).padStart(2, "0")}`;
    const id = idFrom(`futures:${product.code}:${month}`);
    const coFrom = t.firstNotice && text(shift(t.firstNotice, -2));
    out.push({
      instrument_id: id,
      contract_id: id,
      symbol,
      code: product.code,
      name: `${product.name} ${MONTH_NAMES[m - 1]} ${y}`,
      category: FUTURES_CATEGORY,
      product_class_id: product.classId,
      exchange_code: product.exchange,
      currency: "USD",
      contract_type: "MONTHLY",
      contract_month: month,
      first_trading_date: text(listedOn),
      last_trading_date: text(t.last),
      ...(t.firstNotice ? { first_notice_date: text(t.firstNotice) } : {}),
      settlement_date: text(t.settlement),
      settlement: settlementOf(product),
      size: product.size,
      unit: product.unit,
      multiplier: product.multiplier,
      min_tick: product.minTick,
      status: coFrom && today >= coFrom ? "CO" : "OC",
    });
  }
  return out;
}

/**
 * The main contract: the first tradable (OC) contract more than five business days from its last trading day, as
 * `<CODE>main` with that contract's terms and its id as `contract_id`.
 */
export function mainOf(product: FuturesProduct, contracts: FuturesContract[], today: string): FuturesContract | undefined {
  const rollBy = (c: FuturesContract) => text(shift(new Date(`${c.last_trading_date}T00:00:00Z`), -5));
  const front = contracts.find((c) => c.status === "OC" && today < rollBy(c)) ?? contracts[0];
  if (!front) return undefined;
  return {
    ...front,
    instrument_id: idFrom(`futures:${product.code}:main`),
    symbol: `${product.code}main`,
    name: `${product.name} Main`,
    contract_type: "MAIN",
  };
}

/** Every product's main contract then its monthly contracts, in catalog order. */
export function catalogOn(today: string): FuturesContract[] {
  return PRODUCTS.flatMap((product) => {
    const monthly = contractsOf(product, today);
    const main = mainOf(product, monthly, today);
    return main ? [main, ...monthly] : monthly;
  });
}
