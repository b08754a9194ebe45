"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { IChartApi, ISeriesApi, TickMarkType, UTCTimestamp } from "lightweight-charts";
import { CHART_TIMESPANS, type CandleView, type ChartTimespan, type MarketCode, type QuoteView } from "@/lib/market";
import { dayPart, INTRADAY, marketTimeLabel, TIMESPAN_SECONDS } from "@/lib/market-sessions";

/**
 * Candles with volume, a timespan switch and the pre/post-market hours shaded, drawn by TradingView's
 * lightweight-charts (loaded on this page only, by a dynamic import; its attribution logo stays, as its licence asks).
 * Bars come from the desk's bars route (cached for a fraction of their span); the live quote moves the last bar.
 */
const UP = "#059669";
const DOWN = "#dc2626";
const SHADE = "rgba(100, 116, 139, 0.13)";
const VISIBLE_BARS = 140;
/** `TickMarkType.Time` (a const enum of the library, not importable without loading it). */
const TICK_TIME = 3;

interface Drawn {
  chart: IChartApi;
  candles: ISeriesApi<"Candlestick">;
  volume: ISeriesApi<"Histogram">;
  shade: ISeriesApi<"Histogram">;
}

const barsUrl = (market: MarketCode, symbol: string, timespan: ChartTimespan) =>
  `/api/market/${market}/${encodeURIComponent(symbol)}/bars?timespan=${timespan}`;

async function fetchBars(url: string, signal: AbortSignal): Promise<CandleView[]> {
  const res = await fetch(url, { signal });
  const body = (await res.json()) as CandleView[] | { message?: string };
  if (!res.ok || !Array.isArray(body)) throw new Error(("message" in body && body.message) || `HTTP ${res.status}`);
  return body;
}

export function PriceChart({
  market,
  symbol,
  initialBars,
  initialTimespan,
  quote,
}: {
  market: MarketCode;
  symbol: string;
  initialBars?: CandleView[];
  initialTimespan: ChartTimespan;
  quote?: QuoteView;
}) {
  const [timespan, setTimespan] = useState<ChartTimespan>(initialTimespan);
  const box = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const [ready, setReady] = useState(false);
  const bars = useQuery({
    queryKey: ["market-bars", market, symbol, timespan],
    queryFn: ({ signal }) => fetchBars(barsUrl(market, symbol, timespan), signal),
    initialData: timespan === initialTimespan ? initialBars : undefined,
    staleTime: 10_000,
  });

  // The library is loaded and the chart made once; it follows the box's size.
  useEffect(() => {
    let gone = false;
    void import("lightweight-charts").then((lc) => {
      if (gone || !box.current) return;
      const chart = lc.createChart(box.current, {
        autoSize: true,
        layout: { background: { color: "#ffffff" }, textColor: "#334155", fontSize: 11, attributionLogo: true },
        grid: { vertLines: { color: "#f1f5f9" }, horzLines: { color: "#f1f5f9" } },
        rightPriceScale: { scaleMargins: { top: 0.06, bottom: 0.26 }, borderColor: "#e2e8f0" },
        timeScale: { borderColor: "#e2e8f0", timeVisible: true, secondsVisible: false, rightOffset: 3 },
        crosshair: { mode: lc.CrosshairMode.Normal },
      });
      const shade = chart.addSeries(lc.HistogramSeries, {
        priceScaleId: "session",
        priceLineVisible: false,
        lastValueVisible: false,
        color: SHADE,
      });
      chart.priceScale("session").applyOptions({ scaleMargins: { top: 0, bottom: 0 }, visible: false });
      const candles = chart.addSeries(lc.CandlestickSeries, {
        upColor: UP,
        downColor: DOWN,
        borderVisible: false,
        wickUpColor: UP,
        wickDownColor: DOWN,
      });
      const volume = chart.addSeries(lc.HistogramSeries, {
        priceScaleId: "volume",
        priceFormat: { type: "volume" },
        priceLineVisible: false,
        lastValueVisible: false,
      });
      chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
      drawn.current = { chart, candles, volume, shade };
      setReady(true);
    });
    return () => {
      gone = true;
      drawn.current?.chart.remove();
      drawn.current = null;
    };
  }, []);

  // Axis labels in the market's own clock: times within a day, dates for day and week bars.
  useEffect(() => {
    const intraday = INTRADAY.has(timespan);
    drawn.current?.chart.applyOptions({
      localization: { timeFormatter: (t: UTCTimestamp) => marketTimeLabel(market, t, intraday ? "both" : "date") },
      timeScale: {
        tickMarkFormatter: (t: UTCTimestamp, kind: TickMarkType) =>
          marketTimeLabel(market, t, intraday && kind >= TICK_TIME ? "time" : "date"),
      },
    });
  }, [ready, market, timespan]);

  const data = bars.data;
  useEffect(() => {
    const d = drawn.current;
    if (!d || !data) return;
    const intraday = INTRADAY.has(timespan);
    d.candles.setData(data.map((b) => ({ time: b.time as UTCTimestamp, open: +b.open, high: +b.high, low: +b.low, close: +b.close })));
    d.volume.setData(
      data.map((b) => ({
        time: b.time as UTCTimestamp,
        value: Number(b.volume ?? 0),
        color: +b.close >= +b.open ? "rgba(5, 150, 105, 0.35)" : "rgba(220, 38, 38, 0.35)",
      })),
    );
    d.shade.setData(
      data.map((b) => {
        const part = intraday ? dayPart(market, new Date(b.time * 1000)) : "CORE";
        return part === "PRE" || part === "POST" ? { time: b.time as UTCTimestamp, value: 1 } : { time: b.time as UTCTimestamp };
      }),
    );
    d.chart.timeScale().setVisibleLogicalRange({ from: Math.max(0, data.length - VISIBLE_BARS), to: data.length + 2 });
  }, [ready, data, market, timespan]);

  // The live quote moves the last bar (or opens the next one when its time has come).
  const last = quote?.last;
  const at = quote?.tradeTime;
  useEffect(() => {
    const d = drawn.current;
    if (!d || !data?.length || !last || !at) return;
    const span = TIMESPAN_SECONDS[timespan];
    const t = Math.floor(Date.parse(at) / 1000);
    const tail = data[data.length - 1];
    if (!Number.isFinite(t) || t < tail.time) return;
    const price = Number(last);
    const start = INTRADAY.has(timespan) && t >= tail.time + span ? Math.floor(t / span) * span : tail.time;
    const base = start === tail.time ? tail : { open: last, high: last, low: last };
    d.candles.update({
      time: start as UTCTimestamp,
      open: +base.open,
      high: Math.max(+base.high, price),
      low: Math.min(+base.low, price),
      close: price,
    });
  }, [ready, data, last, at, timespan]);

  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-1.5">
        <div role="group" aria-label="Timespan" className="inline-flex overflow-hidden rounded border border-slate-300 text-xs">
          {CHART_TIMESPANS.map((t) => (
            <button
              key={t}
              type="button"
              aria-pressed={t === timespan}
              onClick={() => setTimespan(t)}
              className={`px-2.5 py-1 font-medium ${t === timespan ? "bg-slate-800 text-white" : "bg-white text-slate-700 hover:bg-slate-100"}`}
            >
              {t}
            </button>
          ))}
        </div>
        <div className="flex items-center gap-3 text-xs text-slate-500">
          {INTRADAY.has(timespan) && market === "US" ? (
            <span className="inline-flex items-center gap-1">
              <span className="inline-block size-3 rounded-sm" style={{ background: SHADE }} aria-hidden />
              Pre/post-market
            </span>
          ) : null}
          {bars.isFetching ? <span>Loading bars…</span> : null}
        </div>
      </div>
      <div className="relative min-h-[360px] flex-1">
        <div
          ref={box}
          className="absolute inset-0"
          data-testid="price-chart"
          data-timespan={timespan}
          data-bars={data?.length ?? 0}
          data-ready={ready && !!data ? "true" : undefined}
        />
        {bars.isError ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-white/90 text-sm text-red-700" role="alert">
            Bars could not be read: {bars.error.message}
            <button
              type="button"
              className="rounded border border-slate-300 px-2 py-0.5 text-slate-700"
              onClick={() => void bars.refetch()}
            >
              Retry
            </button>
          </div>
        ) : data && data.length === 0 ? (
          <div className="absolute inset-0 flex items-center justify-center text-sm text-slate-500">No bars for this timespan.</div>
        ) : null}
      </div>
    </div>
  );
}
