import { InfiniteQueryObserver, QueryClient, type InfiniteData } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { readAgain, readOlder } from "@/components/live/read-again";

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

  it("a notice for other lists leaves this one alone", async () => {
    const l = list(["r2", "r1"]);
    await l.settle();
    readAgain(l.client, new Set(["orders"]));
    await l.settle();
    expect(l.reads).toEqual([null]);
  });
});
