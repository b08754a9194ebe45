"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { instrumentKeys, instrumentUrls } from "@/components/instruments/query-keys";
import { useDebounced } from "@/components/order-ticket/use-debounced";
import { instrumentHref } from "@/lib/instruments";
import type { InstrumentSummary } from "@/lib/schemas/instrument-tabs";

/**
 * The header's symbol search: type a symbol or part of a name, pick an instrument, Enter opens its page. A
 * combobox (WAI-ARIA): arrows move through the matches, Enter opens the highlighted one, Escape closes the list and
 * then clears the box. Matches come from the desk's instrument master (`/api/instruments/search`, kept an hour on
 * the server), one request per pause in typing. Links are relative, so it works on whatever host serves the desk.
 */
const noSubscription = () => () => {};

export function SymbolSearch() {
  const router = useRouter();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDebounced(text.trim(), 150);
  const listId = useId();
  // Set once hydrated: text typed into the server's markup before then is not the component's state.
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const found = useQuery({
    queryKey: instrumentKeys.search(q),
    queryFn: ({ signal }) => fetchJson<InstrumentSummary[]>(instrumentUrls.search(q), signal),
    enabled: q.length > 0,
    staleTime: 5 * 60_000,
  });
  const matches = q && q === text.trim() ? (found.data ?? []) : [];
  const shown = open && text.trim().length > 0;

  const go = (i: InstrumentSummary | undefined) => {
    const href = i && instrumentHref(i.market, i.symbol);
    if (!href) return;
    setOpen(false);
    setText("");
    router.push(href);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      if (matches.length) setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(matches[Math.min(active, matches.length - 1)]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      if (shown) setOpen(false);
      else setText("");
    }
  };

  return (
    <div className="relative mr-auto w-72">
      <input
        type="search"
        role="combobox"
        aria-label="Look up a ticker or company"
        data-ready={ready || undefined}
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && matches.length ? `${listId}-${Math.min(active, matches.length - 1)}` : undefined}
        placeholder="Symbol or name…"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKey}
        className="h-7 w-full rounded border border-slate-300 bg-slate-50 px-2 text-sm focus:border-blue-500 focus:bg-white focus:outline-none"
      />
      {shown ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Matches"
          className="absolute top-8 left-0 z-30 max-h-80 w-96 overflow-auto rounded border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {matches.map((i, n) => (
            <li
              key={`${i.market}:${i.symbol}`}
              id={`${listId}-${n}`}
              role="option"
              aria-selected={n === Math.min(active, matches.length - 1)}
              // Chosen on mouse down, before the box's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                go(i);
              }}
              onMouseEnter={() => setActive(n)}
              className={`flex cursor-pointer items-baseline gap-2 px-2 py-1 ${n === Math.min(active, matches.length - 1) ? "bg-blue-50" : ""}`}
            >
              <span className="w-16 shrink-0 font-mono font-semibold text-slate-900">{i.symbol}</span>
              <span className="min-w-0 flex-1 truncate text-slate-700">{i.name}</span>
              <span className="shrink-0 text-xs text-slate-500">
                {i.market}
                {i.isEtf ? " · ETF" : ""}
              </span>
            </li>
          ))}
          {matches.length === 0 ? (
            <li className="px-2 py-1 text-slate-500" role="presentation">
              {found.isError
                ? (found.error as Error).message
                : found.isFetching || q !== text.trim()
                  ? "Searching…"
                  : "No instrument matches."}
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
