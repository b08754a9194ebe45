import { describe, expect, it } from "vitest";
import { parseMarketTopics } from "@/lib/schemas/market";
import { dayPart, inAuctionWindow, marketClock } from "@/lib/market-sessions";

describe("market hours in the market's own time zone", () => {
  it("shades US pre- and post-market, across daylight saving", () => {
    // 08:00 New York: 13:00Z in winter (EST), 12:00Z in summer (EDT).
    expect(dayPart("US", new Date("2026-11-17T13:00:00Z"))).toBe("PRE");
    expect(dayPart("US", new Date("2026-07-14T12:00:00Z"))).toBe("PRE");
    expect(dayPart("US", new Date("2026-11-17T14:30:00Z"))).toBe("CORE");
    expect(dayPart("US", new Date("2026-11-17T21:00:00Z"))).toBe("POST");
    expect(dayPart("US", new Date("2026-11-18T01:00:00Z"))).toBe("CLOSED");
    expect(dayPart("US", new Date("2026-11-21T15:00:00Z"))).toBe("CLOSED"); // a Saturday
    expect(dayPart("HK", new Date("2026-11-17T02:00:00Z"))).toBe("CORE"); // 10:00 Hong Kong
  });

  it("knows the US auction windows, and the market's clock", () => {
    expect(inAuctionWindow("US", new Date("2026-11-17T14:29:00Z"))).toBe(true); // 09:29
    expect(inAuctionWindow("US", new Date("2026-11-17T14:30:00Z"))).toBe(false);
    expect(inAuctionWindow("US", new Date("2026-11-17T20:55:00Z"))).toBe(true); // 15:55
    expect(inAuctionWindow("HK", new Date("2026-11-17T08:00:00Z"))).toBe(false);
    expect(marketClock("US", "2026-11-17T20:55:07Z")).toBe("15:55:07");
  });
});

describe("the live channel's market topics", () => {
  it("keeps well-formed topics once each, upper-cases symbols, and drops the rest", () => {
    expect(parseMarketTopics("snapshot:US:aapl,depth:US:AAPL,snapshot:US:AAPL,bogus:US:X,tick:XX:A,noii:HK:00700,snapshot:US:")).toEqual([
      { kind: "snapshot", market: "US", symbol: "AAPL" },
      { kind: "depth", market: "US", symbol: "AAPL" },
      { kind: "noii", market: "HK", symbol: "00700" },
    ]);
    expect(parseMarketTopics(null)).toEqual([]);
    expect(parseMarketTopics(Array.from({ length: 30 }, (_, i) => `snapshot:US:S${i}`).join(","))).toHaveLength(12);
  });
});
