import "server-only";

/**
 * Trading calendars of the three markets: weekends plus an approximate exchange holiday table for 2025–2027
 * (other years: weekends only). Settlement: US T+1, HK T+2, CN T+1, counted in trading days.
 */
type Market = "US" | "HK" | "CN";

const HOLIDAYS: Record<Market, string[]> = {
  US: [
    "2025-01-01",
    "2025-01-09",
    "2025-01-20",
    "2025-02-17",
    "2025-04-18",
    "2025-05-26",
    "2025-06-19",
    "2025-07-04",
    "2025-09-01",
    "2025-11-27",
    "2025-12-25",
    "2026-01-01",
    "2026-01-19",
    "2026-02-16",
    "2026-04-03",
    "2026-05-25",
    "2026-06-19",
    "2026-07-03",
    "2026-09-07",
    "2026-11-26",
    "2026-12-25",
    "2027-01-01",
    "2027-01-18",
    "2027-02-15",
    "2027-03-26",
    "2027-05-31",
    "2027-06-18",
    "2027-07-05",
    "2027-09-06",
    "2027-11-25",
    "2027-12-24",
  ],
  HK: [
    "2025-01-01",
    "2025-01-29",
    "2025-01-30",
    "2025-01-31",
    "2025-04-04",
    "2025-04-18",
    "2025-04-21",
    "2025-05-01",
    "2025-05-05",
    "2025-07-01",
    "2025-10-01",
    "2025-10-07",
    "2025-10-29",
    "2025-12-25",
    "2025-12-26",
    "2026-01-01",
    "2026-02-17",
    "2026-02-18",
    "2026-02-19",
    "2026-04-03",
    "2026-04-06",
    "2026-04-07",
    "2026-05-01",
    "2026-05-25",
    "2026-06-19",
    "2026-07-01",
    "2026-10-01",
    "2026-10-19",
    "2026-12-25",
    "2027-01-01",
    "2027-02-08",
    "2027-02-09",
    "2027-02-10",
    "2027-03-26",
    "2027-03-29",
    "2027-04-05",
    "2027-05-13",
    "2027-06-09",
    "2027-07-01",
    "2027-10-01",
    "2027-10-08",
    "2027-12-27",
  ],
  CN: [
    "2025-01-01",
    "2025-01-28",
    "2025-01-29",
    "2025-01-30",
    "2025-01-31",
    "2025-02-03",
    "2025-02-04",
    "2025-04-04",
    "2025-05-01",
    "2025-05-02",
    "2025-05-05",
    "2025-06-02",
    "2025-10-01",
    "2025-10-02",
    "2025-10-03",
    "2025-10-06",
    "2025-10-07",
    "2025-10-08",
    "2026-01-01",
    "2026-01-02",
    "2026-02-16",
    "2026-02-17",
    "2026-02-18",
    "2026-02-19",
    "2026-02-20",
    "2026-04-06",
    "2026-05-01",
    "2026-05-04",
    "2026-05-05",
    "2026-06-19",
    "2026-10-01",
    "2026-10-02",
    "2026-10-05",
    "2026-10-06",
    "2026-10-07",
    "2027-01-01",
    "2027-02-05",
    "2027-02-08",
    "2027-02-09",
    "2027-02-10",
    "2027-02-11",
    "2027-04-05",
    "2027-05-03",
    "2027-05-04",
    "2027-05-05",
    "2027-06-09",
    "2027-10-01",
    "2027-10-04",
    "2027-10-05",
    "2027-10-06",
    "2027-10-07",
  ],
};
const EARLY_CLOSE: Record<Market, string[]> = {
  US: ["2025-07-03", "2025-11-28", "2025-12-24", "2026-11-27", "2026-12-24", "2027-11-26"],
  HK: ["2025-01-28", "2025-12-24", "2025-12-31", "2026-02-16", "2026-12-24", "2026-12-31", "2027-02-05", "2027-12-24", "2027-12-31"],
  CN: [],
};
const SETTLEMENT_DAYS: Record<Market, number> = { US: 1, HK: 2, CN: 1 };

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

export function isTradingDay(market: Market, date: Date): boolean {
  const dow = date.getUTCDay();
  return dow !== 0 && dow !== 6 && !HOLIDAYS[market].includes(day(date));
}

/** A half day: the regular session ends early (US 13:00, after-hours to 17:00; HK after the morning session). */
export function isEarlyClose(market: Market, date: Date): boolean {
  return EARLY_CLOSE[market].includes(day(date));
}

export function calendar(market: Market, from: string, to: string) {
  const out = [];
  for (let d = new Date(`${from}T00:00:00Z`); day(d) <= to; d = addDays(d, 1)) {
    const trading = isTradingDay(market, d);
    let settle: string | undefined;
    if (trading) {
      let n = SETTLEMENT_DAYS[market];
      let s = d;
      while (n > 0) {
        s = addDays(s, 1);
        if (isTradingDay(market, s)) n -= 1;
      }
      settle = day(s);
    }
    out.push({
      date: day(d),
      settlement_date: settle,
      is_trading_day: trading,
      is_early_close: trading && isEarlyClose(market, d),
      is_settlement_day: trading,
    });
  }
  return out;
}
