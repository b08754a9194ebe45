import { hydrate, InfiniteQueryObserver, QueryClient, QueryObserver, type InfiniteData } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { dehydrateAsOf } from "@/components/data-table/query-client";
import { readAgain, readOlder, watchServerData } from "@/components/live/read-again";
import { HeardLog } from "@/lib/live-ready";

/**
 * components/live/read-again.ts: a live notice and a reader's "Older runs" meet on one paged list. Neither may undo
 * the other: the older page asked for stays, and the change the notice announced is read.
 */
type Page = { rows: string[]; next: number | null };

/** A paged list over `rows` (newest first, two a page) whose reads wait until the test lets them go. */
function pagedList(rows: string[]) {
  const held: (() => void)[] = [];
  const reads: (number | null)[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const observer = new InfiniteQueryObserver<Page, Error, InfiniteData<Page>, string[], number | null>(client, {
    queryKey: ["report-runs"],
    initialPageParam: null,
    getNextPageParam: (p) => p.next,
    queryFn: async ({ pageParam }) => {
      reads.push(pageParam);
      await new Promise<void>((go) => held.push(go));
      const from = pageParam ?? 0;
      return { rows: rows.slice(from, from + 2), next: from + 2 < rows.length ? from + 2 : null };
    },
  });
  const off = observer.subscribe(() => {});
  /** Lets every read waiting go, until none is left. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 0));
      held.splice(0).forEach((go) => go());
    }
  };
  const shown = () => observer.getCurrentResult().data?.pages.flatMap((p) => p.rows);
  return { client, observer, reads, settle, shown, stop: () => (off(), client.clear()) };
}

describe("readAgain and readOlder", () => {
  const lists: { stop(): void }[] = [];
  const list = (rows: string[]) => {
    const l = pagedList(rows);
    lists.push(l);
    return l;
  };
  afterEach(() => lists.splice(0).forEach((l) => l.stop()));

  it("a notice while the older page is read keeps that page, then reads both pages again", async () => {
    const rows = ["r5", "r4", "r3", "r2", "r1"];
    const l = list(rows);
    await l.settle();
    expect(l.shown()).toEqual(["r5", "r4"]);

    const older = l.observer.fetchNextPage();
    await new Promise((r) => setTimeout(r, 0));
    rows.unshift("r6"); // a run finished: its notice arrives while the older page is on its way
    readAgain(l.client, new Set(["report-runs"]));
    await l.settle();
    await older;

    // Both pages, read again after the older one came: the new run and the page the reader asked for.
    expect(l.shown()).toEqual(["r6", "r5", "r4", "r3"]);
    expect(l.reads).toEqual([null, 2, null, 2]);
  });

  it('"Older runs" while a notice\'s read is in flight waits for it rather than cancelling it', async () => {
    const rows = ["r5", "r4", "r3", "r2", "r1"];
    const l = list(rows);
    await l.settle();

    rows.unshift("r6");
    readAgain(l.client, new Set(["report-runs"]));
    await new Promise((r) => setTimeout(r, 0));
    const asked = readOlder(l.observer.getCurrentResult());
    await l.settle();
    await asked;

    expect(l.shown()).toEqual(["r6", "r5", "r4", "r3"]);
  });

  it("a notice while a query's first read is in flight reads again once that read has come", async () => {
    // The blotter's changes since its watermark: read at the server before an order was booked, answered after the
    // notice of it reached the tab. TanStack Query joins a refetch of a query without data to the read in flight.
    const books = ["o1"];
    const held: (() => void)[] = [];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const observer = new QueryObserver(client, {
      queryKey: ["orders", "changes", ""],
      queryFn: async () => {
        const read = [...books];
        await new Promise<void>((go) => held.push(go));
        return read;
      },
    });
    const off = observer.subscribe(() => {});
    lists.push({ stop: () => (off(), client.clear()) });
    await new Promise((r) => setTimeout(r, 0));
    expect(held).toHaveLength(1);

    books.push("o2");
    readAgain(client, new Set(["orders"]));
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 0));
      held.splice(0).forEach((go) => go());
    }
    expect(observer.getCurrentResult().data).toEqual(["o1", "o2"]);
  });

  it("a query removed while its first read is in flight is no longer waited for", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    lists.push({ stop: () => client.clear() });
    void client.prefetchQuery({ queryKey: ["orders", "changes", ""], queryFn: () => new Promise(() => {}) });
    await new Promise((r) => setTimeout(r, 0));
    readAgain(client, new Set(["orders"]));
    expect(client.getQueryCache().hasListeners()).toBe(true);
    client.removeQueries({ queryKey: ["orders"] });
    expect(client.getQueryCache().hasListeners()).toBe(false);
  });

  it("a notice for other lists leaves this one alone", async () => {
    const l = list(["r2", "r1"]);
    await l.settle();
    readAgain(l.client, new Set(["orders"]));
    await l.settle();
    expect(l.reads).toEqual([null]);
  });
});

/**
 * components/live/read-again.ts `watchServerData` and components/data-table/query-client.ts `dehydrateAsOf`: data read on
 * the server that reaches the tab after a notice it predates reads again; data read after it, or fetched in the tab,
 * does not.
 */
describe("watchServerData", () => {
  // Nothing here goes stale by age (staleTime Infinity): a read is the watcher's doing alone, whatever the clock says.
  const NOTICE = Date.now();
  const ticks = () => new Promise((r) => setTimeout(r, 5));

  /** A tab that heard a movement change at NOTICE, watching its query cache; `reads` counts the list's fetches. */
  function tab() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const heard = new HeardLog();
    heard.hear(["movement"], NOTICE);
    const stop = watchServerData(client, heard);
    let reads = 0;
    const observe = (key: string[]) => {
      const observer = new QueryObserver(client, { queryKey: key, queryFn: async () => (reads++, { rows: ["fresh"] }) });
      const off = observer.subscribe(() => {});
      return { observer, off };
    };
    return { client, stop, observe, reads: () => reads };
  }

  /** A server's page of movements read from `readAt` on, as the page hands it over. */
  async function serverPage(readAt: number, root = "movements") {
    const server = new QueryClient();
    await server.prefetchQuery({ queryKey: [root, "list", ""], queryFn: async () => ({ rows: ["old"] }) });
    return dehydrateAsOf(server, readAt);
  }

  it("the server's data is handed over as of when the read began, its data unchanged", async () => {
    const state = await serverPage(NOTICE - 500);
    expect(state.queries.map((q) => [q.state.dataUpdatedAt, q.state.data])).toEqual([[NOTICE - 500, { rows: ["old"] }]]);
  });

  it("a page read before the notice reads again as it is hydrated; one read after it does not", async () => {
    const before = tab();
    hydrate(before.client, await serverPage(NOTICE - 1));
    const list = before.observe(["movements", "list", ""]);
    await ticks();
    expect(before.reads()).toBe(1);
    expect(list.observer.getCurrentResult().data).toEqual({ rows: ["fresh"] });
    list.off();
    before.stop();

    const after = tab();
    hydrate(after.client, await serverPage(NOTICE + 1));
    const kept = after.observe(["movements", "list", ""]);
    await ticks();
    expect(after.reads()).toBe(0);
    expect(kept.observer.getCurrentResult().data).toEqual({ rows: ["old"] });
    kept.off();
    after.stop();
  });

  it("a query whose topics the tab heard nothing of since is not read again", async () => {
    const t = tab();
    hydrate(t.client, await serverPage(NOTICE - 1, "audit"));
    const list = t.observe(["audit", "list", ""]);
    await ticks();
    expect(t.reads()).toBe(0);
    list.off();
    t.stop();
  });

  it("a component's initial data read before the notice reads again; a query fetched in the tab is left alone", async () => {
    const t = tab();
    const detail = new QueryObserver(t.client, {
      queryKey: ["movements", "detail", "X"],
      queryFn: async () => ({ rows: ["fresh"] }),
      initialData: { rows: ["old"] },
      initialDataUpdatedAt: NOTICE - 1,
    });
    const off = detail.subscribe(() => {});
    await ticks();
    expect(detail.getCurrentResult().data).toEqual({ rows: ["fresh"] });
    off();
    // A query fetched in the tab (no data when it is made) is never read again for it.
    const fetched = t.observe(["movements", "list", "?type=DEPOSIT"]);
    await ticks();
    expect(t.reads()).toBe(1);
    fetched.off();
    t.stop();
  });

  it("a page hydrated over a query the tab already had is checked the same way", async () => {
    const t = tab();
    t.client.setQueryData(["movements", "list", ""], { rows: ["older"] }, { updatedAt: NOTICE - 10_000 });
    hydrate(t.client, await serverPage(NOTICE - 1));
    const list = t.observe(["movements", "list", ""]);
    await ticks();
    expect(t.reads()).toBe(1);
    list.off();
    t.stop();
  });
});
