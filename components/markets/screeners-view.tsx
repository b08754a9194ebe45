"use client";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { Options } from "@/components/ui/field";
import { PnL } from "@/components/ui/money";
import { DetailPanel } from "@/components/ui/panel-state";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { formatDateTime } from "@/lib/format";
import { formatMoney, mulDecimal } from "@/lib/money";
import {
  ACTIVE_RANKS,
  GAINER_RANKS,
  SCREENER_CATEGORIES,
  WEEK52_RANKS,
  type ScreenerAnswer,
  type ScreenerId,
  type ScreenerRow,
} from "@/lib/schemas/screeners";

/**
 * The markets page: the six screeners of the Market Data API, each its own panel with its own loading, error and
 * empty states. Every symbol links to its instrument page. Answers are shared by every viewer for 30 s on the server,
 * so the page refetches on that period too.
 */
const REFRESH_MS = 30_000;
const CATEGORY_LABELS = { US_STOCK: "US", HK_STOCK: "Hong Kong", CN_STOCK: "China A (Connect)" } as const;
const CURRENCY = { US_STOCK: "USD", HK_STOCK: "HKD", CN_STOCK: "CNH" } as const;
type Category = (typeof SCREENER_CATEGORIES)[number];

const LABELS: Record<string, string> = {
  DESC: "Gainers",
  ASC: "Losers",
  DAY_1: "1 day",
  DAY_5: "5 days",
  MONTH_1: "1 month",
  MONTH_3: "3 months",
  WEEK_52: "52 weeks",
  VOLUME: "Volume",
  RELATIVE_VOLUME_10D: "Relative volume (10 d)",
  TURNOVER: "Turnover",
  TURNOVER_RATE: "Turnover rate",
  AMPLITUDE: "Amplitude",
  NEAR_HIGH: "Near 52-week high",
  NEW_HIGH: "New 52-week high",
  NEAR_LOW: "Near 52-week low",
  NEW_LOW: "New 52-week low",
};

// ——— formatting (decimal strings stay strings until shown) ———
const decimalsOf = (v: string) => (v.includes(".") ? v.split(".")[1].length : 0);
const price = (v?: string) => (v ? formatMoney(v, undefined, Math.min(Math.max(2, decimalsOf(v)), 4)) : "—");
const percent = (v?: string) => (v ? `${formatMoney(mulDecimal(v, "100"), undefined, 2)}%` : "—");
const signedPercent = (v?: string) => (v && !v.startsWith("-") && Number(v) !== 0 ? `+${percent(v)}` : percent(v));
const signedPrice = (v?: string) => (v && !v.startsWith("-") && Number(v) !== 0 ? `+${price(v)}` : price(v));
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 2 });
const big = (v?: string) => (v ? compact.format(Number(v)) : "—");
const ratio = (v?: string) => (v ? formatMoney(v, undefined, 2) : "—");

interface Column {
  key: string;
  label: string;
  cell: (r: ScreenerRow) => ReactNode;
}
const num = (key: string, label: string, cell: (r: ScreenerRow) => ReactNode): Column => ({ key, label, cell });
const changePct = num("change_ratio", "Change %", (r) => <PnL value={r.change_ratio}>{signedPercent(r.change_ratio)}</PnL>);
/** The movers' tables show the change in price too; the others keep to the percentage (two tables side by side at 1920 px). */
const change = [num("change", "Change", (r) => <PnL value={r.change}>{signedPrice(r.change)}</PnL>), changePct];
const priceCol = num("price", "Price", (r) => price(r.price));
const volume = num("volume", "Volume", (r) => big(r.volume));
const marketValue = num("market_value", "Market value", (r) => big(r.market_value));

const COLUMNS: Record<Exclude<ScreenerId, "sectors">, Column[]> = {
  gainers: [priceCol, ...change, volume, num("relative_volume_10d", "Rel. vol 10d", (r) => ratio(r.relative_volume_10d)), marketValue],
  "top-active": [
    priceCol,
    changePct,
    volume,
    num("turnover", "Turnover", (r) => big(r.turnover)),
    num("relative_volume_10d", "Rel. vol 10d", (r) => ratio(r.relative_volume_10d)),
    num("amplitude", "Amplitude", (r) => percent(r.amplitude)),
  ],
  "sector-detail": [priceCol, ...change, volume, marketValue, num("pe_ttm", "P/E", (r) => ratio(r.pe_ttm))],
  "high-dividend": [
    priceCol,
    changePct,
    num("dividend", "Dividend (TTM)", (r) => price(r.dividend)),
    num("yield", "Yield", (r) => percent(r.yield)),
    marketValue,
  ],
  week52: [
    priceCol,
    changePct,
    num("high_52w", "52w high", (r) => price(r.high_52w)),
    num("low_52w", "52w low", (r) => price(r.low_52w)),
    num("change_ratio_52w", "52w change", (r) => <PnL value={r.change_ratio_52w}>{signedPercent(r.change_ratio_52w)}</PnL>),
  ],
};

function useScreener(screener: ScreenerId, category: Category, extra: Record<string, string | undefined> = {}) {
  const params = new URLSearchParams({ category });
  for (const [k, v] of Object.entries(extra)) if (v) params.set(k, v);
  return useQuery({
    queryKey: ["markets", screener, category, extra],
    queryFn: ({ signal }) => fetchJson<ScreenerAnswer>(`/api/markets/${screener}?${params}`, signal),
    refetchInterval: REFRESH_MS,
  });
}

const symbolLink = (market: string, symbol: string) => (
  <SymbolLink market={market} symbol={symbol} className="font-mono text-blue-700 hover:underline" />
);

function StockTable({
  answer,
  columns,
  currency,
  label,
  keep,
  empty = "No instruments qualify for this screener right now.",
}: {
  answer: ScreenerAnswer;
  columns: Column[];
  currency: string;
  label: string;
  /** The rows that belong under the title (the ranking's own order kept). */
  keep?: (row: ScreenerRow) => boolean;
  empty?: string;
}) {
  return (
    <RowsTable
      label={label}
      rows={keep ? answer.rows.filter(keep) : answer.rows}
      rowKey={(r) => r.symbol}
      rowProps={(r) => ({ "data-testid": "screener-row", "data-symbol": r.symbol, className: "hover:bg-slate-50" })}
      empty={empty}
      columns={[
        { head: "#", numeric: true, className: "w-8 text-slate-400", cell: (_, k) => k + 1 },
        { head: "Symbol", cell: (r) => symbolLink(answer.market, r.symbol) },
        { head: "Name", className: "max-w-[14rem] truncate text-slate-600", cell: (r) => <span title={r.name}>{r.name ?? ""}</span> },
        ...columns.map((c): RowColumn<ScreenerRow> => ({
          head: PRICED.includes(c.key) ? (
            <>
              {c.label}
              <span className="ml-1 font-normal text-slate-400">{currency}</span>
            </>
          ) : (
            c.label
          ),
          numeric: true,
          cell: c.cell,
          data: (r) => ({ "data-col": c.key, "data-value": r[c.key as keyof ScreenerRow] }),
        })),
      ]}
    />
  );
}
/** The columns in the market's currency: their heading names it. */
const PRICED = ["price", "change", "dividend", "high_52w", "low_52w"];

function Choice<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
}) {
  return (
    <label className="flex items-center gap-1 text-xs text-slate-600">
      <span className="sr-only">{label}</span>
      <select
        aria-label={label}
        className="rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs"
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
      >
        <Options values={options} labels={(o) => LABELS[o]} />
      </select>
    </label>
  );
}

const asOf = (a?: ScreenerAnswer) => (a ? <span className="text-[11px] text-slate-400">as of {formatDateTime(a.fetchedAt)}</span> : null);

/** One ranking, with its rank-type choice (kept by the panel) when the screener has one. */
function RankingPanel({
  id,
  title,
  category,
  ranks,
  rankLabel = "Ranked by",
  extra,
  controls,
  keep,
  empty,
}: {
  id: Exclude<ScreenerId, "sectors" | "sector-detail">;
  title: string;
  category: Category;
  ranks?: readonly string[];
  rankLabel?: string;
  extra?: Record<string, string | undefined>;
  controls?: ReactNode;
  keep?: (row: ScreenerRow) => boolean;
  empty?: string;
}) {
  const [rank, setRank] = useState(ranks?.[0]);
  const query = useScreener(id, category, { ...extra, rank });
  return (
    <DetailPanel
      title={title}
      testId={`screener-${id}`}
      query={query}
      actions={
        <>
          {asOf(query.data)}
          {controls}
          {ranks && rank ? <Choice label={rankLabel} value={rank} options={ranks} onChange={setRank} /> : null}
        </>
      }
    >
      {(a) => <StockTable answer={a} columns={COLUMNS[id]} currency={CURRENCY[category]} label={title} keep={keep} empty={empty} />}
    </DetailPanel>
  );
}

function SectorsPanel({ category, onPick, picked }: { category: Category; onPick: (id: string) => void; picked?: string }) {
  const query = useScreener("sectors", category);
  return (
    <DetailPanel title="Market sectors" testId="screener-sectors" query={query} actions={asOf(query.data)}>
      {(a) => (
        <RowsTable
          label="Market sectors"
          rows={a.sectors ?? []}
          rowKey={(s) => s.sector_id}
          rowProps={(s) => ({
            "data-testid": "sector-row",
            "data-sector": s.sector_id,
            className: s.sector_id === picked ? "bg-blue-50" : "hover:bg-slate-50",
          })}
          empty="No sectors for this market."
          columns={[
            {
              head: "Sector",
              cell: (s) => (
                <button type="button" className="text-left text-blue-700 hover:underline" onClick={() => onPick(s.sector_id)}>
                  {s.sector_name}
                </button>
              ),
            },
            { head: "Change %", numeric: true, cell: (s) => <PnL value={s.change_ratio}>{signedPercent(s.change_ratio)}</PnL> },
            { head: "Market value", numeric: true, cell: (s) => big(s.market_value) },
            { head: "Volume", numeric: true, cell: (s) => big(s.volume) },
            {
              head: "Up / down",
              numeric: true,
              cell: (s) => (
                <>
                  <span className="text-emerald-700">{s.rise_count ?? 0}</span> / <span className="text-red-700">{s.fall_count ?? 0}</span>
                </>
              ),
            },
            {
              head: "Leader",
              cell: (s) =>
                s.leading_symbol ? (
                  <>
                    {symbolLink(a.market, s.leading_symbol)}{" "}
                    <PnL value={s.leading_change_ratio}>
                      <span className="tabular-nums text-xs">{signedPercent(s.leading_change_ratio)}</span>
                    </PnL>
                  </>
                ) : (
                  "—"
                ),
            },
          ]}
        />
      )}
    </DetailPanel>
  );
}

function SectorDetailPanel({ category, sectorId }: { category: Category; sectorId?: string }) {
  const query = useScreener("sector-detail", category, { sector_id: sectorId });
  const name = query.data?.sector?.sector_name;
  return (
    <DetailPanel
      title={name ? `Sector: ${name}` : "Sector detail"}
      testId="screener-sector-detail"
      query={query}
      actions={asOf(query.data)}
    >
      {(a) => <StockTable answer={a} columns={COLUMNS["sector-detail"]} currency={CURRENCY[category]} label="Sector detail" />}
    </DetailPanel>
  );
}

export function ScreenersView() {
  const [category, setCategory] = useState<Category>("US_STOCK");
  const [direction, setDirection] = useState<"DESC" | "ASC">("DESC");
  const [sectorId, setSectorId] = useState<string | undefined>(undefined);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-2" role="group" aria-label="Market">
        {SCREENER_CATEGORIES.map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={c === category}
            onClick={() => {
              setCategory(c);
              setSectorId(undefined);
            }}
            className={`rounded border px-2.5 py-1 text-xs ${c === category ? "border-blue-600 bg-blue-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
          >
            {CATEGORY_LABELS[c]}
          </button>
        ))}
      </div>
      <div className="grid grid-cols-1 gap-3 2xl:grid-cols-2">
        <RankingPanel
          id="gainers"
          title={direction === "DESC" ? "Top gainers" : "Top losers"}
          category={category}
          extra={{ direction }}
          ranks={GAINER_RANKS}
          rankLabel="Period"
          controls={<Choice label="Gainers or losers" value={direction} options={["DESC", "ASC"] as const} onChange={setDirection} />}
          // The ranking runs on past zero on a day with few gainers (or losers): those rows are not what the title says.
          keep={(r) => Math.sign(Number(r.change_ratio ?? 0)) === (direction === "DESC" ? 1 : -1)}
          empty={direction === "DESC" ? "No stock is up over this period." : "No stock is down over this period."}
        />
        <RankingPanel id="top-active" title="Top active" category={category} ranks={ACTIVE_RANKS} />
        <SectorsPanel category={category} onPick={setSectorId} picked={sectorId} />
        <SectorDetailPanel category={category} sectorId={sectorId} />
        <RankingPanel id="high-dividend" title="High dividend" category={category} />
        <RankingPanel id="week52" title="52-week high / low" category={category} ranks={WEEK52_RANKS} rankLabel="52-week list" />
      </div>
    </div>
  );
}
