import type { ChartTimespan, MarketCode } from "@/lib/market";

/**
 * Trading hours as the chart and the NOII panel need them, in the market's own time zone: which part of the day a
 * bar falls in (US pre-market 04:00–09:30, post-market 16:00–20:00 New York time; HK and CN trade no extended
 * hours here) and whether an auction publishes imbalances (the US opening cross 09:28–09:30, closing 15:50–16:00).
 */
export const MARKET_TIME_ZONES: Record<MarketCode, string> = {
  US: "America/New_York",
  HK: "Asia/Hong_Kong",
  CN: "Asia/Shanghai",
};

/** The city whose clock a market keeps, for labels ("as of 15:55:02 New York"). */
export const MARKET_CITIES: Record<MarketCode, string> = { US: "New York", HK: "Hong Kong", CN: "Shanghai" };

export const TIMESPAN_SECONDS: Record<ChartTimespan, number> = { M1: 60, M5: 300, M15: 900, M60: 3600, D: 86_400, W: 604_800 };
export const INTRADAY: ReadonlySet<ChartTimespan> = new Set(["M1", "M5", "M15", "M60"]);

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(timeZone: string, at: Date): { minute: number; weekday: string } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hour: "2-digit", minute: "2-digit", weekday: "short", hourCycle: "h23" });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return { minute: Number(p.hour) * 60 + Number(p.minute), weekday: p.weekday };
}

export type DayPart = "PRE" | "CORE" | "POST" | "CLOSED";

/** The part of the trading day a moment falls in, in the market's time zone. */
export function dayPart(market: MarketCode, at: Date): DayPart {
  const { minute, weekday } = partsIn(MARKET_TIME_ZONES[market], at);
  if (weekday === "Sat" || weekday === "Sun") return "CLOSED";
  if (market !== "US") return minute >= 9 * 60 + 30 && minute < 16 * 60 ? "CORE" : "CLOSED";
  if (minute >= 4 * 60 && minute < 9 * 60 + 30) return "PRE";
  if (minute >= 9 * 60 + 30 && minute < 16 * 60) return "CORE";
  if (minute >= 16 * 60 && minute < 20 * 60) return "POST";
  return "CLOSED";
}

/** Whether a US auction is publishing its imbalance (NOII) at this moment. */
export function inAuctionWindow(market: MarketCode, at: Date): boolean {
  if (market !== "US") return false;
  const { minute, weekday } = partsIn(MARKET_TIME_ZONES.US, at);
  if (weekday === "Sat" || weekday === "Sun") return false;
  return (minute >= 9 * 60 + 28 && minute < 9 * 60 + 30) || (minute >= 15 * 60 + 50 && minute < 16 * 60);
}

/** A bar's time (epoch seconds) as the market's clock shows it: `HH:mm`, `dd Mon`, or both. */
export function marketTimeLabel(market: MarketCode, epochSeconds: number, show: "time" | "date" | "both"): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: MARKET_TIME_ZONES[market],
    ...(show !== "time" ? { day: "2-digit", month: "short" } : {}),
    ...(show !== "date" ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : {}),
  })
    .format(new Date(epochSeconds * 1000))
    .replace(",", "");
}

/** A moment as the market's clock shows it, to the second (a trade, a quote). */
export function marketClock(market: MarketCode, iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: MARKET_TIME_ZONES[market],
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).format(d);
}
