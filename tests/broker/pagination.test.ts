import { afterEach, describe, expect, it } from "vitest";
import { collectAll, paginate } from "@/server/broker/pagination";
import { configReply, startFakeUpstream, testClient, type SeenRequest } from "./helpers/fake-upstream";

let upstream: Awaited<ReturnType<typeof startFakeUpstream>> | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** 25 records served either way: legacy = bare array + last-id cursor, resource = {data, pagination_key}. */
function pager<T>(all: T[], idOf: (t: T) => string, lastIdParam: string, mode: "legacy" | "resource") {
  return (req: SeenRequest) => {
    const size = Number(req.query.page_size ?? 10);
    const after =
      mode === "legacy"
        ? req.query[lastIdParam]
        : req.query.pagination_key && Buffer.from(req.query.pagination_key, "base64url").toString();
    const start = after ? all.findIndex((x) => idOf(x) === after) + 1 : 0;
    const items = all.slice(start, start + size);
    if (mode === "legacy") return { json: items };
    const more = start + size < all.length;
    return {
      json: more ? { data: items, pagination_key: Buffer.from(idOf(items[items.length - 1])).toString("base64url") } : { data: items },
    };
  };
}

const accounts = Array.from({ length: 25 }, (_, i) => ({
  account_id: `ACC${String(i).padStart(3, "0")}`,
  account_status: "ACTIVE",
  trading_permissions: [],
}));
const groups = Array.from({ length: 23 }, (_, i) => ({
  client_order_id: `co${i}`,
  combo_type: "NORMAL",
  orders: [
    {
      client_order_id: `co${i}`,
      order_id: `o${i}`,
      status: "SUBMITTED",
      place_time: "1767225600000",
      place_time_at: "2026-01-01T00:00:00Z",
    },
  ],
}));
const activities = Array.from({ length: 12 }, (_, i) => ({ id: `act${i}`, activity_type: "DEPOSIT", net_amount: "10.00" }));
const contracts = Array.from({ length: 7 }, (_, i) => ({
  instrument_id: `OPT${i}`,
  symbol: `AAPL26011${i}C00200000`,
  option_type: "CALL",
  strike_price: "200",
}));

describe.each(["legacy", "resource"] as const)("pagination, %s paths", (style) => {
  it("walks virtual accounts (last_account_id | pagination_key)", async () => {
    upstream = await startFakeUpstream((req) => configReply(req) ?? pager(accounts, (a) => a.account_id, "last_account_id", style)(req));
    const { client } = testClient(upstream.url, { pathStyle: style });
    const first = await client.listVirtualAccounts({ page_size: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.nextCursor).toBeDefined();
    const all = await collectAll((cursor) => client.listVirtualAccounts({ page_size: 10, cursor }));
    expect(all.map((a) => a.account_id)).toEqual(accounts.map((a) => a.account_id));
    const path = style === "legacy" ? "/openapi/broker/account/nd/list" : "/broker/accounts/virtual-accounts/list";
    const hits = upstream.seen.filter((s) => s.path === path);
    expect(hits.length).toBeGreaterThanOrEqual(3);
    const cursorParam = style === "legacy" ? "last_account_id" : "pagination_key";
    expect(hits.filter((h) => h.query[cursorParam])).toHaveLength(2); // pages 2 and 3 of the walk
    expect(hits.every((h) => h.headers["x-version"] === (style === "legacy" ? "v2" : "v3"))).toBe(true);
  });

  it("walks order history (last_client_order_id | pagination_key) and keeps order records tidy", async () => {
    upstream = await startFakeUpstream(
      (req) => configReply(req) ?? pager(groups, (g) => g.client_order_id, "last_client_order_id", style)(req),
    );
    const { client } = testClient(upstream.url, { pathStyle: style });
    const ids: string[] = [];
    for await (const g of paginate((cursor) => client.listOrderHistory({ account_id: "VA1", page_size: 5, cursor })))
      ids.push(g.client_order_id);
    expect(ids).toEqual(groups.map((g) => g.client_order_id));
    const page = await client.listOrderHistory({ account_id: "VA1", page_size: 5 });
    const o = page.items[0].orders[0];
    expect(o.placed_at).toBe("2026-01-01T00:00:00.000Z");
    expect("place_time" in o).toBe(false); // deprecated field read, not exposed
  });

  it("walks activities (last_activity_id | pagination_key)", async () => {
    upstream = await startFakeUpstream((req) => configReply(req) ?? pager(activities, (a) => a.id, "last_activity_id", style)(req));
    const { client } = testClient(upstream.url, { pathStyle: style });
    const all = await collectAll((cursor) => client.listAccountActivities({ account_id: "VA1", page_size: 5, cursor }));
    expect(all.map((a) => a.id)).toEqual(activities.map((a) => a.id));
  });

  it("walks option contracts with last_instrument_id and a bare array in both styles", async () => {
    upstream = await startFakeUpstream(
      (req) => configReply(req) ?? pager(contracts, (c) => c.instrument_id, "last_instrument_id", "legacy")(req),
    );
    const { client } = testClient(upstream.url, { pathStyle: style });
    const all = await collectAll((cursor) => client.listOptionContracts({ root_symbol: "AAPL", page_size: 3, cursor }));
    expect(all.map((c) => c.instrument_id)).toEqual(contracts.map((c) => c.instrument_id));
    const hits = upstream.seen.filter((s) => s.path.includes("contracts"));
    expect(hits.map((h) => h.query.last_instrument_id)).toEqual([undefined, "OPT2", "OPT5"]);
    expect(hits.every((h) => h.query.pagination_key === undefined && h.query.category === "US_OPTION")).toBe(true);
  });
});

describe("pagination edge cases", () => {
  it("stops on a repeated cursor instead of looping", async () => {
    let calls = 0;
    const all = await collectAll(async () => (calls++, { items: [1], nextCursor: "same" }));
    expect(all).toEqual([1, 1]);
    expect(calls).toBe(2);
  });

  it("unpaged lists accept a bare array or {data}", async () => {
    let n = 0;
    upstream = await startFakeUpstream((req) => {
      const c = configReply(req);
      if (c) return c;
      const rows = [{ position_id: "P1", symbol: "AAPL", quantity: 10 }];
      return { json: ++n === 1 ? rows : { data: rows } };
    });
    const { client } = testClient(upstream.url);
    const a = await client.listPositions({ account_id: "VA1" });
    const b = await client.listPositions({ account_id: "VA1" });
    expect(a).toEqual(b);
    expect(a[0].quantity).toBe("10"); // a number from the wire becomes a decimal string
  });
});
