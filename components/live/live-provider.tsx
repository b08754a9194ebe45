"use client";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useReducer, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { HeardLog, heardAtReady, topicsToReadAgain, type LiveReady } from "@/lib/live-ready";
import { LIVE_TOPIC_QUERY_ROOTS, type StreamStatus } from "@/lib/stream-health";
import { throttle } from "@/lib/throttle";
import { createMarketRegistry, MarketContext, type MarketEventView } from "./market-topics";
import { readAgain, watchServerData } from "./read-again";

/**
 * One live channel per tab (server-sent events from /api/live, on whatever host served the page): a change notice
 * makes the matching TanStack Query keys stale, so open lists and details refetch in place, and is re-announced as
 * a `brokerdesk:change` window event for components that highlight what changed. The stream's status feeds the
 * banner. EventSource reconnects by itself after a network failure; back, the channel reads again everything its
 * topics cover, for the notices sent while it was down never arrive. A page's first connection reads again what
 * changed between the page's own read and the channel's subscription (lib/live-ready.ts); data that arrives after a
 * notice it may predate (a page read on the server, then on its way) asks the tab's heard log (lib/live-ready.ts).
 */
export interface ChangeNoticeDetail {
  topics: string[];
  accounts: string[];
  /** More accounts changed than `accounts` names (a merged notice of a busy moment, server/events/live.ts). */
  moreAccounts?: boolean;
  /** The server's clock as the notice left (absent from a notice the tab makes up on "ready"). */
  at?: number;
}

interface Live {
  connected: boolean;
  status?: StreamStatus;
  notices: number;
}

const INITIAL: Live = { connected: false, notices: 0 };

/**
 * The most often an open list reads its page again while notices stream in (the server sends at most four a second,
 * server/events/live.ts): fifty people's blotters refetching on every notice would be the app's heaviest load.
 */
const REFETCH_MS = 1_000;

/**
 * The channel's state lives in a small store read with useSyncExternalStore, not in a context value: a context
 * value that changes (the channel says "ready" within milliseconds of the first load) reaches every Suspense
 * boundary still waiting to hydrate below it, and React gives up hydrating such a boundary and renders it again on
 * the client, so the page's streamed content and a client copy stood in the DOM together for a moment. A store
 * update re-renders only the components that read it (the header's mark, the stream banner).
 */
interface LiveStore {
  get(): Live;
  set(update: (live: Live) => Live): void;
  subscribe(listener: () => void): () => void;
}

function createLiveStore(): LiveStore {
  let live = INITIAL;
  const listeners = new Set<() => void>();
  return {
    get: () => live,
    set: (update) => {
      live = update(live);
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const LiveContext = createContext<LiveStore>(createLiveStore());
const HeardContext = createContext(new HeardLog());
const initial = () => INITIAL;

/** When this tab heard each topic change (lib/live-ready.ts): for data read on the server and shown after a notice. */
export function useHeardLog(): HeardLog {
  return useContext(HeardContext);
}
export function useLive(): Live {
  const store = useContext(LiveContext);
  return useSyncExternalStore(store.subscribe, store.get, initial);
}

/**
 * Whether this tab hears change notices now, re-rendering only when that changes. A reader that keeps a cursor (the
 * blotter's changes since its watermark) reads once more when it turns true: a notice sent between the page's read
 * and the channel's subscription (or during a reconnect) was never heard.
 */
export function useLiveConnected(): boolean {
  const store = useContext(LiveContext);
  return useSyncExternalStore(
    store.subscribe,
    () => store.get().connected,
    () => false,
  );
}

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [store] = useState(createLiveStore);
  const [market] = useState(createMarketRegistry);
  const [heard] = useState(() => new HeardLog());
  // The topics the channel was opened with, and a count that reopens it. The pages' effects run before this
  // provider's (children first), so a page loaded with market panels opens the channel once, with its topics.
  const opened = useRef("");
  const [generation, reopen] = useReducer((n: number) => n + 1, 0);
  // The channel was down (an error, or closed to open it again with other market topics): notices may have been
  // missed, and the next "ready" reads again what the reader's topics cover.
  const missed = useRef(false);

  // Data read on the server and arriving after a notice it may predate reads again (read-again.ts).
  useEffect(() => watchServerData(queryClient, heard), [queryClient, heard]);

  // The channel is reopened when the market topics in view change, a beat later so that a page mounting several
  // panels reopens it once.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = market.onTopicsChange(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (market.topics().join(",") !== opened.current) reopen();
      }, 30);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [market]);

  useEffect(() => {
    const current = market.topics().join(",");
    opened.current = current;
    const source = new EventSource(current ? `/api/live?market=${encodeURIComponent(current)}` : "/api/live");
    source.addEventListener("market", (e) => market.receive(JSON.parse((e as MessageEvent<string>).data) as MarketEventView));
    const refetch = throttle<Set<string>>(
      (roots) => readAgain(queryClient, roots),
      (a, b) => new Set([...a, ...b]),
      REFETCH_MS,
    );
    const announce = (notice: ChangeNoticeDetail) => {
      refetch.push(new Set(notice.topics.flatMap((t) => LIVE_TOPIC_QUERY_ROOTS[t] ?? [])));
      window.dispatchEvent(new CustomEvent<ChangeNoticeDetail>("brokerdesk:change", { detail: notice }));
    };
    source.addEventListener("ready", (e) => {
      store.set((l) => ({ ...l, connected: true }));
      // What changed before the channel subscribed, as if notified now (a list reads its page again, a server-rendered
      // page refreshes): after a gap, every topic the reader receives; on the page's first connection, the topics the
      // server heard since the page began to load (its data was read after that).
      const ready = JSON.parse((e as MessageEvent<string>).data) as LiveReady;
      for (const [topic, at] of Object.entries(heardAtReady(ready, missed.current))) heard.hear([topic], at);
      const topics = topicsToReadAgain(ready, performance.now(), missed.current);
      if (topics.length) announce({ topics, accounts: [] });
      missed.current = false;
    });
    source.addEventListener("error", () => {
      missed.current = true;
      store.set((l) => ({ ...l, connected: false }));
    });
    source.addEventListener("status", (e) => {
      const status = JSON.parse((e as MessageEvent<string>).data) as StreamStatus;
      store.set((l) => ({ ...l, status }));
    });
    // The lists a notice concerns read again at most once a REFETCH_MS, the first at once (lib/throttle.ts).
    source.addEventListener("change", (e) => {
      const notice = JSON.parse((e as MessageEvent<string>).data) as ChangeNoticeDetail;
      if (notice.at !== undefined) heard.hear(notice.topics, notice.at);
      announce(notice);
      store.set((l) => ({ ...l, notices: l.notices + 1 }));
    });
    return () => {
      source.close();
      refetch.stop();
      missed.current = true;
    };
  }, [queryClient, store, market, heard, generation]);

  return (
    <LiveContext.Provider value={store}>
      <HeardContext.Provider value={heard}>
        <MarketContext.Provider value={market}>{children}</MarketContext.Provider>
      </HeardContext.Provider>
    </LiveContext.Provider>
  );
}

/** The header's small "Live" mark: whether this tab hears change notices. */
export function LiveIndicator() {
  const { connected, notices } = useLive();
  return (
    <span
      data-testid="live-indicator"
      data-notices={notices}
      title={connected ? "Live: lists update as the upstream reports changes" : "Not live: reconnecting to the desk"}
      className="inline-flex items-center gap-1 text-xs text-slate-500"
    >
      <span className={`size-2 rounded-full ${connected ? "bg-emerald-500" : "bg-slate-300"}`} aria-hidden />
      {connected ? "Live" : "Offline"}
    </span>
  );
}
