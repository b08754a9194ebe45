import "server-only";
import { z } from "zod";
import { WATCHLIST_CATEGORIES } from "@/server/broker/schemas/watchlists";
import { defineTool } from "../tool";

/**
 * The spec's watchlist tools, with the official MCP tools' parameters: the desk's watchlists at the upstream (those of
 * its app key, shared by the desk's staff) and their instruments. Reads need `market:read`; writes `watchlists:write`
 * and a token's write scope. Each goes through the desk's Broker client, which never sends a watchlist write twice.
 */
const text = z.string().nullish();
const watchlistId = z.string().trim().min(1).max(64).describe("The watchlist's id (get_watchlists)");
const name = z.string().trim().min(1).max(64);
const sort = z.number().int().min(0).max(1_000_000);
const ref = {
  symbol: z.string().trim().toUpperCase().min(1).max(24).describe("e.g. AAPL, 00700"),
  category: z.enum(WATCHLIST_CATEGORIES).describe("Stocks and ETFs only: watchlists hold no futures, options or event contracts"),
};
const done = z.object({ success: z.boolean() });

const watchlist = z.object({
  watchlist_id: z.string(),
  name: z.string(),
  sort: z.number().nullish(),
  create_time: text,
  update_time: text,
});
const member = z.object({
  symbol: z.string(),
  instrument_id: text,
  name: text,
  exchange_code: text,
  category: text,
  sort: z.number().nullish(),
  added_time: text,
});
const instruments = <T extends z.ZodRawShape>(shape: T, what: string) =>
  z.object({ watchlist_id: watchlistId, instruments: z.array(z.object(shape)).min(1).max(1000).describe(what) });

export const WATCHLIST_TOOLS = [
  defineTool({
    name: "get_watchlists",
    skill: "watchlist-list",
    title: "Watchlists",
    description: "The desk's watchlists, highest sort first: watchlist_id, name, sort, create_time, update_time.",
    permission: "market:read",
    readOnly: true,
    input: z.object({}),
    output: z.object({ watchlists: z.array(watchlist) }),
    run: async (_input, ctx) => ({ watchlists: await ctx.broker.listWatchlists() }),
  }),
  defineTool({
    name: "create_watchlist",
    skill: "watchlist-create",
    title: "Create a watchlist",
    description: "Creates a watchlist (at most 20; names unique whatever their case). Returns the new watchlist_id.",
    permission: "watchlists:write",
    readOnly: false,
    input: z.object({ name: name.describe("The watchlist's name"), sort: sort.optional().describe("Sort order (default: on top)") }),
    output: z.object({ watchlist_id: z.string() }),
    run: (input, ctx) => ctx.broker.createWatchlist(input),
  }),
  defineTool({
    name: "update_watchlist",
    skill: "watchlist-update",
    title: "Rename or reorder a watchlist",
    description: "Changes a watchlist's name or sort order; only the fields given change.",
    permission: "watchlists:write",
    readOnly: false,
    input: z.object({
      watchlist_id: watchlistId,
      name: name.optional().describe("The new name"),
      sort: sort.optional().describe("The new sort order (higher lists first)"),
    }),
    output: done,
    run: (input, ctx) => ctx.broker.updateWatchlist(input),
  }),
  defineTool({
    name: "delete_watchlist",
    skill: "watchlist-delete",
    title: "Delete a watchlist",
    description: "Deletes a watchlist and every instrument in it. This cannot be undone.",
    permission: "watchlists:write",
    readOnly: false,
    destructive: true,
    input: z.object({ watchlist_id: watchlistId }),
    output: done,
    run: (input, ctx) => ctx.broker.deleteWatchlist(input),
  }),
  defineTool({
    name: "get_watchlist_instruments",
    skill: "watchlist-instruments-list",
    title: "A watchlist's instruments",
    description:
      "The instruments of a watchlist, highest sort first: instrument_id, symbol, name, exchange_code, category, sort, added_time.",
    permission: "market:read",
    readOnly: true,
    input: z.object({ watchlist_id: watchlistId }),
    output: z.object({ watchlist_id: z.string(), instruments: z.array(member) }),
    run: (input, ctx) => ctx.broker.listWatchlistInstruments(input),
  }),
  defineTool({
    name: "add_watchlist_instruments",
    skill: "watchlist-instruments-add",
    title: "Add instruments to a watchlist",
    description:
      "Adds stocks or ETFs to a watchlist, all or none (at most 1,000 instruments across all watchlists); without a sort they go on top " +
      "in the order given. Does not take futures, options or event contracts.",
    permission: "watchlists:write",
    readOnly: false,
    input: instruments({ ...ref, sort: sort.optional() }, 'e.g. [{"symbol": "AAPL", "category": "US_STOCK"}]'),
    output: done,
    run: (input, ctx) => ctx.broker.addWatchlistInstruments(input),
  }),
  defineTool({
    name: "remove_watchlist_instruments",
    skill: "watchlist-instruments-remove",
    title: "Remove instruments from a watchlist",
    description: "Removes instruments from a watchlist by symbol and category, all or none (each must be in it).",
    permission: "watchlists:write",
    readOnly: false,
    destructive: true,
    input: instruments(ref, 'e.g. [{"symbol": "AAPL", "category": "US_STOCK"}]'),
    output: done,
    run: (input, ctx) => ctx.broker.removeWatchlistInstruments(input),
  }),
  defineTool({
    name: "update_watchlist_instruments",
    skill: "watchlist-instruments-update",
    title: "Reorder a watchlist's instruments",
    description:
      "Sets the sort order of instruments in a watchlist (located by symbol and category; higher lists first); the others keep theirs.",
    permission: "watchlists:write",
    readOnly: false,
    input: instruments({ ...ref, sort }, 'e.g. [{"symbol": "AAPL", "category": "US_STOCK", "sort": 2}]'),
    output: done,
    run: (input, ctx) => ctx.broker.updateWatchlistInstruments(input),
  }),
];
