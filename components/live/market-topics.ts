"use client";
import { useContext, useEffect, useSyncExternalStore, createContext } from "react";
import { marketTopic, type LiveMarketData, type LiveMarketKind, type MarketCode } from "@/lib/market";

/**
 * The market topics this tab views, riding the tab's one live channel: components say what they show
 * (`useMarketTopic`), the registry counts them, and when the set changes the provider reopens the channel with the
 * new `?market=` list (the server's shared pollers then send each answer as a `market` event). The latest event of
 * each topic is kept, so a second component on the same topic renders at once.
 */
export interface MarketEventView<K extends LiveMarketKind = LiveMarketKind> {
  topic: string;
  kind: K;
  data?: LiveMarketData[K];
  error?: string;
  at: number;
}

export interface MarketRegistry {
  add(topic: string): () => void;
  topics(): string[];
  onTopicsChange(listener: () => void): () => void;
  receive(event: MarketEventView): void;
  latest(topic: string): MarketEventView | undefined;
  subscribe(listener: () => void): () => void;
}

export function createMarketRegistry(): MarketRegistry {
  const counts = new Map<string, number>();
  const latest = new Map<string, MarketEventView>();
  const topicListeners = new Set<() => void>();
  const dataListeners = new Set<() => void>();
  const changed = () => topicListeners.forEach((l) => l());
  return {
    add(topic) {
      counts.set(topic, (counts.get(topic) ?? 0) + 1);
      if (counts.get(topic) === 1) changed();
      return () => {
        const n = (counts.get(topic) ?? 1) - 1;
        if (n > 0) return void counts.set(topic, n);
        counts.delete(topic);
        latest.delete(topic);
        changed();
      };
    },
    topics: () => [...counts.keys()].sort(),
    onTopicsChange(listener) {
      topicListeners.add(listener);
      return () => topicListeners.delete(listener);
    },
    receive(event) {
      if (!counts.has(event.topic)) return;
      // An error keeps the last good data beside it: a quote that stops updating says so, without going blank.
      const before = latest.get(event.topic);
      latest.set(event.topic, event.error ? { ...event, data: before?.data } : event);
      dataListeners.forEach((l) => l());
    },
    latest: (topic) => latest.get(topic),
    subscribe(listener) {
      dataListeners.add(listener);
      return () => dataListeners.delete(listener);
    },
  };
}

export const MarketContext = createContext<MarketRegistry>(createMarketRegistry());

const none = () => undefined;

/** The live value of one market topic for as long as the component shows it; `enabled: false` asks nothing. */
export function useMarketTopic<K extends LiveMarketKind>(
  kind: K,
  market: MarketCode,
  symbol: string,
  enabled = true,
): MarketEventView<K> | undefined {
  const registry = useContext(MarketContext);
  const topic = marketTopic(kind, market, symbol);
  useEffect(() => (enabled ? registry.add(topic) : undefined), [registry, topic, enabled]);
  const get = () => (enabled ? (registry.latest(topic) as MarketEventView<K> | undefined) : undefined);
  return useSyncExternalStore(registry.subscribe, get, none);
}
