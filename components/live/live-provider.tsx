"use client";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { LIVE_TOPIC_QUERY_ROOTS, type StreamStatus } from "@/lib/stream-health";

/**
 * One live channel per tab (server-sent events from /api/live, on whatever host served the page): a change notice
 * makes the matching TanStack Query keys stale, so open lists and details refetch in place, and is re-announced as
 * a `brokerdesk:change` window event for components that highlight what changed. The stream's status feeds the
 * banner. EventSource reconnects by itself after a network failure.
 */
export interface ChangeNoticeDetail {
  topics: string[];
  accounts: string[];
}

interface Live {
  connected: boolean;
  status?: StreamStatus;
  notices: number;
}

const LiveContext = createContext<Live>({ connected: false, notices: 0 });
export const useLive = () => useContext(LiveContext);

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<Live>({ connected: false, notices: 0 });

  useEffect(() => {
    const source = new EventSource("/api/live");
    source.addEventListener("ready", () => setLive((l) => ({ ...l, connected: true })));
    source.addEventListener("error", () => setLive((l) => ({ ...l, connected: false })));
    source.addEventListener("status", (e) => {
      const status = JSON.parse((e as MessageEvent<string>).data) as StreamStatus;
      setLive((l) => ({ ...l, status }));
    });
    source.addEventListener("change", (e) => {
      const notice = JSON.parse((e as MessageEvent<string>).data) as ChangeNoticeDetail;
      const roots = new Set(notice.topics.flatMap((t) => LIVE_TOPIC_QUERY_ROOTS[t] ?? []));
      void queryClient.invalidateQueries({ predicate: (q) => roots.has(String(q.queryKey[0])) });
      window.dispatchEvent(new CustomEvent<ChangeNoticeDetail>("brokerdesk:change", { detail: notice }));
      setLive((l) => ({ ...l, notices: l.notices + 1 }));
    });
    return () => source.close();
  }, [queryClient]);

  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
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
