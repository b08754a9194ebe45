import "server-only";
import { isEarlyClose, isTradingDay } from "../calendar";

/**
 * Trading sessions by market, in exchange-local time (DST handled by Intl):
 * US (America/New_York) PRE 04:00–09:30, CORE 09:30–16:00, AFTER 16:00–20:00, NIGHT 20:00–04:00 (Sun–Thu evenings);
 * HK (Asia/Hong_Kong) CORE 09:30–12:00 and 13:00–16:00; CN (Asia/Shanghai) CORE 09:30–11:30 and 13:00–15:00.
 * On the calendar's early closes the US regular session ends at 13:00 and after-hours at 17:00; HK trades the
 * morning session only.
 * Outside these the market is CLOSED: orders are accepted and wait for their session.
 */
export type Market = "US" | "HK" | "CN";
export type Session = "PRE" | "CORE" | "AFTER" | "NIGHT" | "CLOSED";

const ZONE: Record<Market, string> = { US: "America/New_York", HK: "Asia/Hong_Kong", CN: "Asia/Shanghai" };
const formatters = new Map<Market, Intl.DateTimeFormat>();

/**
 * Results by market and UTC minute: these zones' offsets are whole minutes, so every instant of one UTC minute has the
 * same local date and minute. A matching pass asks for each working order's placing time and for now, mostly the
 * same few minutes; Intl formatting was a visible share of the pass.
 */
const minutes = new Map<string, Readonly<{ date: string; minute: number }>>();

/** Local calendar date (yyyy-MM-dd) and minute of day of an instant in the market's zone. */
export function localTime(market: Market, at: Date): Readonly<{ date: string; minute: number }> {
  const key = `${market}${Math.floor(at.getTime() / 60_000)}`;
  const known = minutes.get(key);
  if (known) return known;
  if (minutes.size >= 10_000) minutes.clear();
  const result = Object.freeze(formatLocal(market, at));
  minutes.set(key, result);
  return result;
}

function formatLocal(market: Market, at: Date): { date: string; minute: number } {
  let f = formatters.get(market);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone: ZONE[market],
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(market, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const tradingDay = (market: Market, date: string) => isTradingDay(market, new Date(`${date}T00:00:00Z`));
const earlyClose = (market: Market, date: string) => isEarlyClose(market, new Date(`${date}T00:00:00Z`));
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const between = (m: number, from: string, to: string) => {
  const [a, b] = [from, to].map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3)));
  return m >= a && m < b;
};

export function sessionAt(market: Market, at: Date): Session {
  const { date, minute } = localTime(market, at);
  if (market === "US") {
    if (tradingDay("US", date)) {
      const [close, afterEnd] = earlyClose("US", date) ? ["13:00", "17:00"] : ["16:00", "20:00"];
      if (between(minute, "04:00", "09:30")) return "PRE";
      if (between(minute, "09:30", close)) return "CORE";
      if (between(minute, close, afterEnd)) return "AFTER";
    }
    // Overnight runs from 20:00 of one day to 04:00 of the next when the next day trades.
    if (minute >= 20 * 60 && tradingDay("US", nextDay(date))) return "NIGHT";
    if (minute < 4 * 60 && tradingDay("US", date)) return "NIGHT";
    return "CLOSED";
  }
  if (!tradingDay(market, date)) return "CLOSED";
  const core =
    market === "HK"
      ? between(minute, "09:30", "12:00") || (!earlyClose("HK", date) && between(minute, "13:00", "16:00"))
      : between(minute, "09:30", "11:30") || between(minute, "13:00", "15:00");
  return core ? "CORE" : "CLOSED";
}

/** Sessions an order with this support_trading_session may execute in. */
const ALLOWED: Record<string, Session[]> = {
  CORE: ["CORE"],
  ALL: ["PRE", "CORE", "AFTER"],
  NIGHT: ["NIGHT"],
  ALL_DAY: ["PRE", "CORE", "AFTER", "NIGHT"],
};
export function canExecute(tradingSession: string, session: Session): boolean {
  return (ALLOWED[tradingSession] ?? ALLOWED.CORE).includes(session);
}
