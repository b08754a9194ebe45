import { describe, expect, it } from "vitest";
import { z } from "zod";
import { listPart, listResource } from "@/components/data-table/list-resource";
import { firstPage, FIRST_PAGE, listParams, nextPage, pageNumber, parseSort, previousPage } from "@/lib/list-params";

const orders = listParams({
  filters: {
    q: z.string().trim().max(20).optional().catch(undefined),
    side: z.enum(["buy", "sell"]).optional().catch(undefined),
    by: z.enum(["any", "symbol"]).default("any").catch("any"),
  },
  sortable: ["created", "symbol"],
  defaultSort: { id: "created", desc: true },
  sizes: [10, 25, 50],
  defaultSize: 25,
});
const unsorted = listParams({ filters: {} });

describe("listParams: parsing", () => {
  it("gives the defaults for an empty URL", () => {
    expect(orders.parse(new URLSearchParams())).toEqual({
      q: undefined,
      side: undefined,
      by: "any",
      size: 25,
      cursor: undefined,
      prev: [],
      sort: { id: "created", desc: true },
      hide: [],
    });
    expect(unsorted.parse({})).toEqual({ size: 10, cursor: undefined, prev: [], sort: undefined, hide: [] });
  });

  it("falls back to the default of each bad value, keeping the good ones", () => {
    const s = orders.parse(new URLSearchParams("size=7&side=short&by=nope&q=AAPL&sort=evil.asc&hide=a,b;c,,d&cursor="));
    expect(s).toMatchObject({
      size: 25,
      side: undefined,
      by: "any",
      q: "AAPL",
      sort: { id: "created", desc: true },
      hide: ["a", "d"],
      cursor: undefined,
    });
    expect(orders.parse({ size: "abc", q: "x".repeat(50) })).toMatchObject({ size: 25, q: undefined });
  });

  it("reads a Next searchParams record, first value of a repeated key", () => {
    expect(orders.parse({ side: ["sell", "buy"], size: "50", sort: "symbol.asc" })).toMatchObject({
      side: "sell",
      size: 50,
      sort: { id: "symbol", desc: false },
    });
  });

  it("sorts only over the declared sortable columns", () => {
    expect(parseSort("symbol.desc", ["symbol"])).toEqual({ id: "symbol", desc: true });
    expect(parseSort("price.asc", ["symbol"])).toBeUndefined();
    expect(parseSort("symbol.sideways", ["symbol"])).toBeUndefined();
    expect(parseSort("symbol", ["symbol"])).toBeUndefined();
    expect(orders.parse({ sort: "price.asc" }).sort).toEqual({ id: "created", desc: true });
    // No sortable columns: no sort at all, whatever the URL says.
    expect(unsorted.parse({ sort: "created.asc" }).sort).toBeUndefined();
  });

  it("reads the cursor trail and hidden columns as lists", () => {
    expect(orders.parse({ cursor: "c3", prev: "-,c1,c2", hide: "symbol,price" })).toMatchObject({
      cursor: "c3",
      prev: [FIRST_PAGE, "c1", "c2"],
      hide: ["symbol", "price"],
    });
  });
});

describe("listParams: serialising", () => {
  it("leaves defaults out, so a default state is an empty query", () => {
    expect(orders.toQuery(orders.parse({}))).toBe("");
    expect(orders.toQuery({ ...orders.parse({}), by: "any", size: 25, sort: { id: "created", desc: true } })).toBe("");
  });

  it("writes what differs, and parses back to the same state", () => {
    const state = {
      ...orders.parse({}),
      q: "AAPL",
      side: "buy" as const,
      size: 50,
      sort: { id: "symbol" as const, desc: false },
      hide: ["price"],
      cursor: "c2",
      prev: [FIRST_PAGE, "c1"],
    };
    const query = orders.toQuery(state);
    expect(query).toBe("?q=AAPL&side=buy&size=50&cursor=c2&prev=-%2Cc1&sort=symbol.asc&hide=price");
    expect(orders.parse(new URLSearchParams(query.slice(1)))).toEqual(state);
  });

  it("leaves the hidden columns and the trail out of what the server answer depends on", () => {
    const state = { ...orders.parse({}), side: "sell" as const, hide: ["price"], cursor: "c2", prev: [FIRST_PAGE, "c1"] };
    expect(orders.apiQuery(state)).toBe("?side=sell&cursor=c2");
    expect(orders.filterQuery(state)).toBe("?side=sell");
    expect(orders.filters(state)).toEqual({ q: undefined, side: "sell", by: "any" });
  });

  it("tells a filtered state and clears its filters", () => {
    const state = orders.parse({ side: "buy", size: "50" });
    expect(orders.isFiltered(state)).toBe(true);
    expect(orders.isFiltered(orders.parse({ size: "50", by: "any" }))).toBe(false);
    expect(orders.isFiltered({ ...state, ...orders.clearedFilters() })).toBe(false);
    expect(orders.toQuery({ ...state, ...orders.clearedFilters() })).toBe("?size=50");
  });
});

describe("the cursor trail", () => {
  it("pushes on Next and pops on Previous, back to the first page", () => {
    let state = orders.parse({});
    expect(pageNumber(state)).toBe(1);
    state = { ...state, ...nextPage(state, "c1") };
    expect(state).toMatchObject({ cursor: "c1", prev: [FIRST_PAGE] });
    state = { ...state, ...nextPage(state, "c2") };
    expect(state).toMatchObject({ cursor: "c2", prev: [FIRST_PAGE, "c1"] });
    expect(pageNumber(state)).toBe(3);
    // The trail survives the URL.
    state = orders.parse(new URLSearchParams(orders.toQuery(state).slice(1)));
    state = { ...state, ...previousPage(state) };
    expect(state).toMatchObject({ cursor: "c1", prev: [FIRST_PAGE] });
    state = { ...state, ...previousPage(state) };
    expect(state).toMatchObject({ cursor: undefined, prev: [] });
    expect(pageNumber(state)).toBe(1);
    expect(orders.toQuery(state)).toBe("");
  });

  it("goes to the first page from anywhere", () => {
    const state = orders.parse({ cursor: "c3", prev: "-,c1,c2" });
    expect({ ...state, ...firstPage() }).toMatchObject({ cursor: undefined, prev: [] });
  });
});

describe("listResource and listPart: one key and URL for the page's prefetch and the client", () => {
  const page = listResource("orders", "/api/orders", orders);
  const totals = listPart("orders", "totals", "/api/orders", orders);
  const first = orders.parse(new URLSearchParams("side=buy&size=10"));
  const second = { ...first, ...nextPage(first, "c2") };

  it("keys a page by what the server answers (filters, size, sort, cursor) under the live root", () => {
    expect(page.key(first)[0]).toBe("orders");
    expect(page.key(second)).not.toEqual(page.key(first));
    expect(page.url(second)).toMatch(/^\/api\/orders\?.*cursor=c2/);
  });

  it("keys a part by the filter alone, so paging keeps it, and asks the route for that part", () => {
    expect(totals.key(second)).toEqual(totals.key(first));
    expect(totals.key(first)).toEqual(["orders", "totals", "?side=buy"]);
    expect(totals.url(first)).toBe("/api/orders?side=buy&part=totals");
    expect(totals.url(orders.parse({}))).toBe("/api/orders?part=totals");
  });
});
