"use client";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useRef, type KeyboardEvent } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { DetailPanel } from "@/components/ui/panel-state";
import {
  INSTRUMENT_TABS,
  TAB_LABELS,
  tabsFor,
  type InstrumentSummary,
  type InstrumentTab,
  type TabData,
} from "@/lib/schemas/instrument-tabs";
import { FactSectionView } from "./fact-section";
import { instrumentKeys, instrumentUrls } from "./query-keys";

/**
 * The instrument page's reference tabs: profile, analyst views, calendars, statements (or an ETF's fund data),
 * corporate actions, margin ratios, shortability and locate. The chosen tab is in the URL (`?tab=`); the tab list
 * follows the WAI-ARIA pattern (arrow keys, Home, End move and select). Each tab reads its own GET route when first
 * shown, with its own loading, empty and error states; the server keeps each answer for its natural lifetime.
 */
export function InstrumentTabs({ market, symbol }: { market: string; symbol: string }) {
  const m = market.toUpperCase();
  const s = symbol.toUpperCase();
  const summary = useQuery({
    queryKey: instrumentKeys.summary(m, s),
    queryFn: ({ signal }) => fetchJson<InstrumentSummary>(instrumentUrls.summary(m, s), signal),
    staleTime: 5 * 60_000,
  });
  const params = useSearchParams();
  const tabs = summary.data ? tabsFor(summary.data.isEtf) : INSTRUMENT_TABS.filter((t) => t !== "fund");
  const asked = params.get("tab") as InstrumentTab | null;
  // An ETF's link to statements (or a stock's to fund data) opens the tab standing in its place.
  const current: InstrumentTab =
    asked && tabs.includes(asked)
      ? asked
      : asked === "statements" || asked === "fund"
        ? tabs.includes("fund")
          ? "fund"
          : "statements"
        : "profile";
  const refs = useRef<Partial<Record<InstrumentTab, HTMLButtonElement | null>>>({});

  const choose = (t: InstrumentTab, focus = false) => {
    const url = new URL(window.location.href);
    url.searchParams.set("tab", t);
    window.history.replaceState(null, "", url);
    if (focus) refs.current[t]?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const i = tabs.indexOf(current);
    const next =
      e.key === "ArrowRight"
        ? tabs[(i + 1) % tabs.length]
        : e.key === "ArrowLeft"
          ? tabs[(i - 1 + tabs.length) % tabs.length]
          : e.key === "Home"
            ? tabs[0]
            : e.key === "End"
              ? tabs[tabs.length - 1]
              : undefined;
    if (!next) return;
    e.preventDefault();
    choose(next, true);
  };

  return (
    <section className="rounded border border-slate-200 bg-white" aria-label="Reference data" data-testid="instrument-tabs">
      <div
        role="tablist"
        aria-label={`${s} reference data`}
        className="flex flex-wrap gap-1 border-b border-slate-200 px-2 pt-2"
        onKeyDown={onKey}
      >
        {tabs.map((t) => (
          <button
            key={t}
            ref={(el) => {
              refs.current[t] = el;
            }}
            role="tab"
            type="button"
            id={`tab-${t}`}
            aria-selected={t === current}
            aria-controls={`tabpanel-${t}`}
            tabIndex={t === current ? 0 : -1}
            onClick={() => choose(t)}
            className={`-mb-px rounded-t border px-3 py-1.5 text-sm ${
              t === current
                ? "border-slate-200 border-b-white bg-white font-semibold text-slate-900"
                : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {TAB_LABELS[t]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`tabpanel-${current}`} aria-labelledby={`tab-${current}`} tabIndex={0} className="p-3">
        {summary.isError ? (
          <DetailPanel title={s} testId="instrument-summary" query={summary}>
            {() => null}
          </DetailPanel>
        ) : (
          <TabBody key={current} market={m} symbol={s} tab={current} />
        )}
      </div>
    </section>
  );
}

function TabBody({ market, symbol, tab }: { market: string; symbol: string; tab: InstrumentTab }) {
  const query = useQuery({
    queryKey: instrumentKeys.tab(market, symbol, tab),
    queryFn: ({ signal }) => fetchJson<TabData>(instrumentUrls.tab(market, symbol, tab), signal),
    staleTime: 60_000,
  });
  return (
    <DetailPanel title={TAB_LABELS[tab]} testId={`tab-${tab}-panel`} query={query}>
      {(data) => (
        <div className="flex flex-col gap-4">
          {data.sections.map((sec, i) => (
            <FactSectionView key={`${sec.title}-${i}`} s={sec} testId={`${tab}-section-${i}`} market={market} />
          ))}
        </div>
      )}
    </DetailPanel>
  );
}
