import { describe, expect, it } from "vitest";
import { z } from "zod";
import { listPart, listResource } from "@/components/data-table/list-resource";
import {
  firstPage,
  FIRST_PAGE,
  hasPreviousPage,
  listParams,
  nextPage,
  pageNumber,
  parseSort,
  previousPage,
  TRAIL_CHARS,
  type PageState,
} from "@/lib/list-params";

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

describe("the cursor trail of a deep page", () => {
  // A keyset cursor as the listings make them: base64url JSON of the last row's time and id (about 80 characters).
  const cursor = (n: number) =>
    Buffer.from(
      JSON.stringify([new Date(Date.UTC(2026, 2, 1) - n * 60_000).toISOString(), `mv-${String(n).padStart(8, "0")}-e2e`]),
    ).toString("base64url");
  type State = ReturnType<typeof orders.parse>;
  /** What the browser does on a click: the patch into the URL, and the URL read back. */
  const through = (state: State, patch: Pick<PageState, "cursor" | "prev" | "page">) => {
    const query = orders.toQuery({ ...state, ...patch });
    expect(query.length).toBeLessThan(4096 - 200);
    return { state: orders.parse(new URLSearchParams(query.slice(1))), query };
  };

  it("keeps the page number and Previous after 100 pages, in an address under 4 KB", () => {
    let state = orders.parse(new URLSearchParams("side=buy&size=50"));
    // Next 100 times: page n's cursor is cursor(n - 1).
    for (let n = 1; n <= 100; n++) state = through(state, nextPage(state, cursor(n))).state;
    expect(state.cursor).toBe(cursor(100));
    expect(pageNumber(state)).toBe(101);
    expect(state.prev.join(",").length).toBeLessThanOrEqual(TRAIL_CHARS);
    expect(state.prev.at(-1)).toBe(cursor(99));

    // Previous goes back one page at a time, the number with it.
    expect(hasPreviousPage(state)).toBe(true);
    state = through(state, previousPage(state)).state;
    expect(state.cursor).toBe(cursor(99));
    expect(pageNumber(state)).toBe(100);
    state = through(state, previousPage(state)).state;
    expect(state.cursor).toBe(cursor(98));
    expect(pageNumber(state)).toBe(99);
    // And forward again from there.
    state = through(state, nextPage(state, cursor(99))).state;
    expect(pageNumber(state)).toBe(100);
    expect(state.prev.at(-1)).toBe(cursor(98));

    // First goes to page 1, whatever the depth.
    const first = through(state, firstPage());
    expect(first.query).toBe("?side=buy&size=50");
    expect(pageNumber(first.state)).toBe(1);
    expect(hasPreviousPage(first.state)).toBe(false);
  });

  it("goes back as far as the trail holds, then offers First only", () => {
    let state = orders.parse({});
    for (let n = 1; n <= 100; n++) state = through(state, nextPage(state, cursor(n))).state;
    const held = state.prev.length;
    expect(held).toBeGreaterThan(10);
    for (let i = 0; i < held; i++) {
      expect(hasPreviousPage(state)).toBe(true);
      state = through(state, previousPage(state)).state;
      expect(pageNumber(state)).toBe(100 - i);
      expect(state.cursor).toBe(cursor(99 - i));
    }
    expect(state.prev).toEqual([]);
    expect(hasPreviousPage(state)).toBe(false);
    expect(pageNumber(state)).toBe(101 - held);
  });

  it("reaches page 1 again when the trail holds the first page, and leaves `page` out of such addresses", () => {
    let state = orders.parse({});
    for (let n = 1; n <= 3; n++) state = through(state, nextPage(state, cursor(n))).state;
    expect(orders.toQuery(state)).not.toMatch(/[?&]page=/);
    expect(pageNumber(state)).toBe(4);
    for (let n = 3; n >= 1; n--) state = through(state, previousPage(state)).state;
    expect(state.cursor).toBeUndefined();
    expect(state.prev).toEqual([]);
    expect(pageNumber(state)).toBe(1);
  });

  it("cuts a trail too long for an address to its newest cursors rather than dropping it", () => {
    const prev = [FIRST_PAGE, ...Array.from({ length: 99 }, (_, i) => cursor(i + 1))].join(",");
    expect(prev.length).toBeGreaterThan(4096);
    const state = orders.parse({ cursor: cursor(100), prev, page: "101" });
    expect(state.prev.length).toBeGreaterThan(10);
    expect(state.prev.at(-1)).toBe(cursor(99));
    expect(pageNumber(state)).toBe(101);
    // A hand-made page number the trail contradicts is not believed.
    expect(pageNumber(orders.parse({ cursor: "c3", prev: "-,c1,c2", page: "40" }))).toBe(4);
    expect(pageNumber(orders.parse({ cursor: "c9", prev: "c7,c8", page: "1" }))).toBe(4);
    expect(orders.parse({ page: "x" }).page).toBeUndefined();
  });

  it("a cursor without a trail is the second page at least, and Previous from the second page is the first", () => {
    const state = orders.parse({ cursor: "c1" });
    expect(pageNumber(state)).toBe(2);
    expect(hasPreviousPage(state)).toBe(true);
    expect(previousPage(state)).toEqual(firstPage());
    expect(hasPreviousPage(orders.parse({ cursor: "c1", page: "7" }))).toBe(false);
  });

  it("leaves the page number out of what the server answer depends on", () => {
    expect(orders.apiQuery(orders.parse({ cursor: "c9", prev: "c7,c8", page: "9", side: "buy" }))).toBe("?side=buy&cursor=c9");
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
