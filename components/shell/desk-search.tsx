"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { useDebounced } from "@/components/order-ticket/use-debounced";
import { instrumentHref } from "@/lib/instruments";
import type { DeskSearchResult, SearchPart } from "@/lib/schemas/search";

/**
 * The header's search: a customer's account number, name or external number, an order's id or client order id, a
 * symbol or company name. A combobox (WAI-ARIA): arrows move through the matches of every group, Enter opens the
 * highlighted one, Escape closes the list and then clears the box. One request per pause in typing
 * (`GET /api/search`: each group as the viewer's role may read it; a group that fails says so, the others still
 * answer). Links are relative, so it works on whatever host serves the desk.
 */
const noSubscription = () => () => {};

interface Match {
  key: string;
  href: string;
  primary: ReactNode;
  secondary: ReactNode;
  tag: string;
}

const GROUPS = [
  { part: "accounts", label: "Accounts" },
  { part: "orders", label: "Orders" },
  { part: "instruments", label: "Instruments" },
] as const;

/** Text that may be an order's id or client order id (the upstream's ids carry digits). */
const mayBeOrderId = (q: string) => /^[A-Za-z0-9_-]{6,64}$/.test(q) && /\d/.test(q);

function matchesOf(q: string, result: DeskSearchResult | undefined): { label: string; error?: string; matches: Match[] }[] {
  if (!result) return [];
  const rows = <T,>(p: SearchPart<T> | undefined): T[] => (p && "rows" in p ? p.rows : []);
  const orders = rows(result.orders);
  // The books lack it: the lookup page asks the upstream, for the account the customer names.
  const lookup: Match[] =
    result.orders && "rows" in result.orders && !orders.length && mayBeOrderId(q)
      ? [
          {
            key: "o:lookup",
            href: `/orders/lookup?id=${encodeURIComponent(q)}`,
            primary: <span className="text-blue-700">Find at the upstream…</span>,
            secondary: `Order ${q} is not in the desk's books`,
            tag: "",
          },
        ]
      : [];
  const made: Record<(typeof GROUPS)[number]["part"], Match[]> = {
    accounts: rows(result.accounts).map((a) => ({
      key: `a:${a.account_id}`,
      href: `/accounts/${encodeURIComponent(a.account_id)}`,
      primary: <span className="font-mono">{a.account_number}</span>,
      secondary: a.owner_name,
      tag: a.account_status,
    })),
    orders: [
      ...orders.map((o) => ({
        key: `o:${o.id}`,
        href: `/orders/${o.id}`,
        primary: <span className="font-mono">{o.clientOrderId}</span>,
        secondary: [o.side, o.symbol, o.accountNumber ?? o.accountId].filter(Boolean).join(" · "),
        tag: o.status,
      })),
      ...lookup,
    ],
    instruments: rows(result.instruments).flatMap((i) => {
      const href = instrumentHref(i.market, i.symbol);
      return href
        ? [
            {
              key: `i:${i.market}:${i.symbol}`,
              href,
              primary: <span className="font-mono font-semibold">{i.symbol}</span>,
              secondary: i.name,
              tag: `${i.market}${i.isEtf ? " · ETF" : ""}`,
            },
          ]
        : [];
    }),
  };
  return GROUPS.filter((g) => result[g.part]).map((g) => {
    const p = result[g.part]!;
    return { label: g.label, error: "error" in p ? p.error : undefined, matches: made[g.part] };
  });
}

export function DeskSearch() {
  const router = useRouter();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDebounced(text.trim(), 200);
  const listId = useId();
  // Set once hydrated: text typed into the server's markup before then is not the component's state.
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const found = useQuery({
    queryKey: ["desk-search", q],
    queryFn: ({ signal }) => fetchJson<DeskSearchResult>(`/api/search?q=${encodeURIComponent(q)}`, signal),
    enabled: q.length > 0,
    staleTime: 30_000,
  });
  const listed = q && q === text.trim() ? matchesOf(q, found.data) : [];
  // Each group's first option's place in the one list the arrows move through.
  const groups = listed.map((g, i) => ({ ...g, start: listed.slice(0, i).reduce((sum, h) => sum + h.matches.length, 0) }));
  const matches = groups.flatMap((g) => g.matches);
  const shown = open && text.trim().length > 0;
  const current = Math.min(active, matches.length - 1);

  const go = (m: Match | undefined) => {
    if (!m) return;
    setOpen(false);
    setText("");
    router.push(m.href);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      if (matches.length) setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(matches[current]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      if (shown) setOpen(false);
      else setText("");
    }
  };

  return (
    <div className="relative mr-auto w-80">
      <input
        type="search"
        role="combobox"
        aria-label="Desk search"
        data-ready={ready || undefined}
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && matches.length ? `${listId}-${current}` : undefined}
        placeholder="Account, order id, symbol or name…"
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
          className="absolute top-8 left-0 z-30 max-h-[28rem] w-[28rem] overflow-auto rounded border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {groups.map((g) =>
            g.matches.length || g.error ? (
              <li key={g.label} role="presentation">
                <div className="px-2 pt-1.5 pb-0.5 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{g.label}</div>
                {g.error ? <div className="px-2 py-1 text-xs text-red-700">{g.error}</div> : null}
                <ul role="group" aria-label={g.label}>
                  {g.matches.map((m, k) => {
                    const i = g.start + k;
                    return (
                      <li
                        key={m.key}
                        id={`${listId}-${i}`}
                        role="option"
                        aria-selected={i === current}
                        // Chosen on mouse down, before the box's blur closes the list.
                        onMouseDown={(e) => {
                          e.preventDefault();
                          go(m);
                        }}
                        onMouseEnter={() => setActive(i)}
                        className={`flex cursor-pointer items-baseline gap-2 px-2 py-1 ${i === current ? "bg-blue-50" : ""}`}
                      >
                        <span className="w-28 shrink-0 truncate text-slate-900">{m.primary}</span>
                        <span className="min-w-0 flex-1 truncate text-slate-700">{m.secondary}</span>
                        <span className="shrink-0 text-xs text-slate-500">{m.tag}</span>
                      </li>
                    );
                  })}
                </ul>
              </li>
            ) : null,
          )}
          {matches.length === 0 && !groups.some((g) => g.error) ? (
            <li className="px-2 py-1 text-slate-500" role="presentation">
              {found.isError ? (found.error as Error).message : found.isFetching || q !== text.trim() ? "Searching…" : "Nothing matches."}
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
