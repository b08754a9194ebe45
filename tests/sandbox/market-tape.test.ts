import { describe, expect, it } from "vitest";
import { greeks } from "@/server/sandbox/trading/greeks";
import { regularSessionVolume, sharesOutstanding } from "@/server/sandbox/trading/instrument-facts";
import { barsOf, Tape, volumeScaleFor } from "@/server/sandbox/trading/tape";

/** The trade tape market data aggregates, and the option greeks, without a server. */
const LOAD = Date.parse("2026-11-17T15:00:00Z");
const tape = (seed = "s1", option = false) => new Tape(`${seed}:US:AAPL:tape`, "US", option, 200, LOAD);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const CORE = new Set(["CORE"] as const);

describe("trade tape", () => {
  it("history is a function of the seed: the same seed the same bars, another seed others", () => {
    const a = barsOf(tape("s1"), "M15", 200, LOAD, undefined);
    expect(barsOf(tape("s1"), "M15", 200, LOAD, undefined)).toEqual(a);
    expect(barsOf(tape("s2"), "M15", 200, LOAD, undefined)).not.toEqual(a);
    expect(a[0].agg.close).toBe(200);
  });

  it("a past day's bar is the sum of its hours, its footprint the sum of its trades", () => {
    const t = tape();
    const [, day] = barsOf(t, "D", 2, LOAD, undefined);
    expect(new Date(day.from).toISOString()).toBe("2026-11-16T00:00:00.000Z");
    const hours = barsOf(t, "M60", 200, day.from + 86_400_000 - 1, undefined).filter((b) => b.from >= day.from);
    expect(sum(hours.map((h) => h.agg.volume))).toBe(day.agg.volume);
    expect(hours[hours.length - 1].agg.open).toBe(day.agg.open);
    expect(hours[0].agg.close).toBe(day.agg.close);
    expect(Math.max(...hours.map((h) => h.agg.high))).toBe(day.agg.high);
    expect(Math.min(...hours.map((h) => h.agg.low))).toBe(day.agg.low);
    const [fp] = barsOf(t, "M240", 1, day.from + 14_400_000 * 3, undefined, true);
    expect(sum([...fp.agg.buy!.values(), ...fp.agg.sell!.values()])).toBe(fp.agg.volume);
  });

  it("a range of history folded as it is computed (no tick kept, closed and filtered half hours passed over) is the fold of its ticks", () => {
    // Loaded on a Saturday: the load price's trade, at Friday's last minute, lies in the history's last day.
    const saturday = Date.parse("2026-11-21T15:00:00Z");
    const tapes = [
      tape(),
      tape("s1", true),
      new Tape("s3:US:AAPL:tape", "US", false, 200, saturday),
      new Tape("s4:HK:00700:tape", "HK", false, 400, LOAD),
    ];
    const day = 86_400_000;
    // Each within a day (a longer range is the merge of its days, in both paths).
    const ranges = [
      [LOAD - 3 * day, LOAD - 2 * day],
      [LOAD - 2 * day + 7_777, LOAD - day - 12_345],
      [saturday - day + 1, saturday - 1],
      [LOAD - 400 * day, LOAD - 399 * day],
    ];
    let compared = 0;
    for (const t of tapes) {
      for (const [from, to] of ranges) {
        for (const filter of [undefined, CORE, new Set(["PRE", "AFTER", "NIGHT"] as const)]) {
          const folded = t.aggregate(from, to, filter);
          const fromTicks = t.aggregate(from, to, filter, true);
          if (fromTicks) {
            const { buy: _b, sell: _s, ...plain } = fromTicks;
            expect(folded).toEqual(plain);
            compared += 1;
          } else expect(folded).toBeUndefined();
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it("sessions: US regular hours hold 4 trades a minute, the other sessions 1, options trade in regular hours only", () => {
    const t = tape();
    const coreMinute = Date.parse("2026-11-16T15:00:00Z");
    expect(t.ticks(coreMinute, coreMinute + 60_000, undefined).map((k) => k.session)).toEqual(["CORE", "CORE", "CORE", "CORE"]);
    const preMinute = Date.parse("2026-11-16T12:00:00Z");
    expect(t.ticks(preMinute, preMinute + 60_000, undefined).map((k) => k.session)).toEqual(["PRE"]);
    expect(tape("s1", true).ticks(preMinute, preMinute + 60_000, undefined)).toEqual([]);
    const saturday = Date.parse("2026-11-14T15:00:00Z");
    expect(t.ticks(saturday, saturday + 3_600_000, undefined)).toEqual([]);
  });

  it("live trades follow the load: the last M1 bar closes at the last trade, ticks are newest first, time never runs back", () => {
    const t = tape();
    t.record(LOAD + 10_000, 201.5, 40);
    t.record(LOAD + 5_000, 199.25, 60);
    const [m1] = barsOf(t, "M1", 1, t.lastTime(), undefined);
    expect(m1.agg).toMatchObject({ close: 199.25, high: 201.5 });
    const recent = t.recent(3, t.lastTime(), undefined);
    expect(recent.map((k) => [k.price, k.side, k.t])).toEqual([
      [199.25, "SELL", LOAD + 10_000],
      [201.5, "BUY", LOAD + 10_000],
      [200, "BUY", LOAD],
    ]);
    expect(t.priceAt(LOAD + 9_000)).toBe(200);
  });

  it("loaded while its market is closed, the load price is the last session's last trade, with nothing printed since", () => {
    const sunday = Date.parse("2026-11-15T14:00:00Z"); // 09:00 in New York: no US session
    const stock = new Tape("s1:US:AAPL:tape", "US", false, 200, sunday);
    const option = new Tape("s1:OPT:AAPL261218C00200000:tape", "US", true, 12.5, sunday);
    // The stock's after-hours session ended on Friday at 20:00 New York time, the option's regular one at 16:00.
    for (const [tape, end, price] of [
      [stock, Date.parse("2026-11-14T01:00:00Z"), 200],
      [option, Date.parse("2026-11-13T21:00:00Z"), 12.5],
    ] as const) {
      expect(new Date(tape.lastTime()).toISOString()).toBe(new Date(end - 1).toISOString());
      expect(tape.recent(1, sunday, undefined)[0]).toMatchObject({ t: end - 1, price });
      expect(tape.priceAt(sunday)).toBe(price);
      expect(tape.ticks(end, sunday + 1, undefined)).toEqual([]);
      // The history runs up to that trade, as continuous as the walk: its last minute within a few ticks of it.
      const before = tape.recent(2, sunday, undefined)[1];
      expect(before.t).toBeLessThan(end - 1);
      expect(Math.abs(before.price / price - 1)).toBeLessThan(0.01);
    }
    // Loaded while it trades, the load price prints at the load time, as before.
    expect(tape().lastTime()).toBe(LOAD);
  });

  it("volumes follow a stock's activity: a full regular session trades about 0.15 to 0.8 % of its shares, live steps add at the history's rate", () => {
    const monday = Date.parse("2026-11-16T00:00:00Z");
    const turnovers = ["US:AAPL", "US:KO", "US:TLT", "HK:00700", "US:NVDA", "US:XOM"].map((key) => {
      const t = new Tape(`s1:${key}:tape`, "US", false, 200, LOAD, volumeScaleFor(regularSessionVolume("s1", key)));
      const [, day] = barsOf(t, "D", 2, LOAD, CORE);
      expect(day.from).toBe(monday);
      return day.agg.volume / sharesOutstanding("s1", key);
    });
    for (const r of turnovers) {
      expect(r).toBeGreaterThan(0.001);
      expect(r).toBeLessThan(0.01);
    }
    // Stocks differ as real ones do: the most active trades several times the share of the least.
    expect(Math.max(...turnovers) / Math.min(...turnovers)).toBeGreaterThan(1.5);

    // Ten scales, ten times every volume; a minute of steps (one a second) adds about a history minute's volume.
    const one = new Tape("s1:US:AAPL:tape", "US", false, 200, LOAD, 1);
    const ten = new Tape("s1:US:AAPL:tape", "US", false, 200, LOAD, 10);
    expect(barsOf(ten, "D", 2, LOAD, undefined)[1].agg.volume).toBe(10 * barsOf(one, "D", 2, LOAD, undefined)[1].agg.volume);
    const coreMinute = Date.parse("2026-11-16T15:00:00Z");
    const historyMinute = barsOf(one, "D", 2, LOAD, CORE)[1].agg.volume / 390;
    const steps = Array.from({ length: 600 }, (_, i) => one.stepVolume((i + 0.5) / 600, coreMinute));
    const stepsMinute = sum(steps) / 10;
    expect(stepsMinute).toBeGreaterThan(0.75 * historyMinute);
    expect(stepsMinute).toBeLessThan(1.33 * historyMinute);
  });
});

describe("Black-Scholes greeks", () => {
  // S = K = 100, one year, r = 4.5 %, sigma = 20 %: call 10.185, put 5.785 (put-call parity).
  const o = { spot: 100, strike: 100, years: 1 };
  it("recovers the volatility that priced the option, and the textbook deltas", () => {
    const call = greeks({ ...o, type: "CALL" }, 10.185);
    const put = greeks({ ...o, type: "PUT" }, 5.785);
    expect(call.imp_vol).toBeCloseTo(0.2, 2);
    expect(put.imp_vol).toBeCloseTo(0.2, 2);
    expect(call.delta).toBeCloseTo(0.6274, 2);
    expect(put.delta).toBeCloseTo(-0.3726, 2);
    expect(call.gamma).toBeCloseTo(put.gamma, 4);
    expect(call.vega).toBeCloseTo(put.vega, 4);
    expect(call.theta).toBeLessThan(0);
    expect(call.rho).toBeGreaterThan(0);
    expect(put.rho).toBeLessThan(0);
  });

  it("stays in range for a price below any volatility's value (deep in the money at intrinsic)", () => {
    const g = greeks({ spot: 150, strike: 100, years: 0.1, type: "CALL" }, 50);
    expect(g.imp_vol).toBe(0.01);
    expect(g.delta).toBeGreaterThan(0.99);
    expect(g.delta).toBeLessThanOrEqual(1);
  });
});
