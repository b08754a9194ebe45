import "server-only";
import { broker, paginate, type BrokerClient } from "@/server/broker";
import type { Instrument } from "@/server/broker/schemas/instruments";
import { NotFoundError } from "@/lib/errors";
import { STOCK_CATEGORY, type InstrumentMarket } from "@/lib/instruments";
import type { InstrumentSummary } from "@/lib/schemas/instrument-tabs";
import { SharedCache } from "@/server/screeners/cache";

/**
 * The desk's instrument master: every stock instrument of the upstream (the profiles list, paged), kept an hour.
 * The header's symbol search reads it (the upstream looks instruments up by exact symbol only); one instrument
 * (its margin ratios, shortability) is read on its own and kept five minutes, as those change during a day.
 */
type Client = Pick<BrokerClient, "listStockInstruments">;

export const MASTER_TTL_MS = 60 * 60_000;
export const INSTRUMENT_TTL_MS = 5 * 60_000;

export function createInstrumentMaster(client: () => Client = broker, now?: () => number) {
  const master = new SharedCache<Instrument[]>(MASTER_TTL_MS, now, 1);
  const one = new SharedCache<Instrument | undefined>(INSTRUMENT_TTL_MS, now);

  const all = () =>
    master.get("all", async () => {
      const out: Instrument[] = [];
      for await (const i of paginate((cursor) => client().listStockInstruments({ page_size: 200, cursor }), { maxPages: 500 })) out.push(i);
      return out;
    });

  return {
    /** Up to `limit` instruments whose symbol or name matches `q`: exact symbol first, then symbol prefix, then name word, then anywhere. */
    async search(q: string, limit = 10): Promise<InstrumentSummary[]> {
      const needle = q.trim().toUpperCase();
      if (!needle) return [];
      const rank = (i: Instrument) => {
        const sym = i.symbol.toUpperCase();
        const name = (i.name ?? "").toUpperCase();
        if (sym === needle) return 0;
        if (sym.startsWith(needle)) return 1;
        if (name.split(/[\s.,&-]+/).some((w) => w.startsWith(needle))) return 2;
        if (name.includes(needle)) return 3;
        return -1;
      };
      return (await all())
        .map((i) => ({ i, r: rank(i) }))
        .filter((x) => x.r >= 0)
        .sort((a, b) => a.r - b.r || a.i.symbol.localeCompare(b.i.symbol))
        .slice(0, limit)
        .map((x) => summarise(x.i));
    },

    /** One instrument by market and exact symbol (HK codes are padded to five digits), or a NotFoundError. */
    async get(market: InstrumentMarket, symbol: string): Promise<Instrument> {
      const sym = market === "HK" && /^\d{1,5}$/.test(symbol) ? symbol.padStart(5, "0") : symbol.toUpperCase();
      const found = await one.get(`${market}:${sym}`, async () => {
        const page = await client().listStockInstruments({ symbols: [sym], category: STOCK_CATEGORY[market], page_size: 10 });
        return page.items.find((i) => i.symbol.toUpperCase() === sym);
      });
      if (!found) throw new NotFoundError(`No ${market} instrument has the symbol ${sym}.`);
      return found;
    },
  };
}

export function summarise(i: Instrument): InstrumentSummary {
  return {
    instrumentId: i.instrument_id,
    market: i.market ?? (i.category === "HK_STOCK" ? "HK" : i.category === "CN_STOCK" ? "CN" : "US"),
    symbol: i.symbol,
    name: i.name ?? "",
    currency: i.currency ?? "",
    subCategory: i.sub_category ?? "",
    isEtf: i.sub_category === "ETF",
    exchange: i.exchange_code ?? "",
  };
}

let shared: ReturnType<typeof createInstrumentMaster> | undefined;
/** The process's instrument master. */
export const instrumentMaster = () => (shared ??= createInstrumentMaster());
