import { describe, expect, it } from "vitest";
import { topicsToReadAgain, type LiveReady } from "@/lib/live-ready";

/** lib/live-ready.ts: what a page reads again when its live channel says ready. */
describe("topicsToReadAgain", () => {
  const ready = (over: Partial<LiveReady> = {}): LiveReady => ({
    topics: ["order", "movement", "account"],
    listeningMs: 60_000,
    ago: { order: 400, movement: 9_000 },
    ...over,
  });

  it("on a page's first connection, the topics heard since the page began to load, no others", () => {
    // Read within the last 2 s: the order notice of 400 ms ago came after the read began, the movement's did not.
    expect(topicsToReadAgain(ready(), 2_000, false)).toEqual(["order"]);
    // A page loading for 10 s: both came after it began.
    expect(topicsToReadAgain(ready(), 10_000, false)).toEqual(["order", "movement"]);
    // Nothing heard since: nothing is read again.
    expect(topicsToReadAgain(ready(), 300, false)).toEqual([]);
    expect(topicsToReadAgain(ready({ ago: {} }), 2_000, false)).toEqual([]);
  });

  it("a notice heard the moment the read began counts: the read may have missed it", () => {
    expect(topicsToReadAgain(ready(), 400, false)).toEqual(["order"]);
  });

  it("every topic when the server has listened for less time than the page has loaded: what came before is unknown", () => {
    expect(topicsToReadAgain(ready({ listeningMs: 1_500 }), 2_000, false)).toEqual(["order", "movement", "account"]);
    expect(topicsToReadAgain(ready({ listeningMs: 0, ago: {} }), 50, false)).toEqual(["order", "movement", "account"]);
  });

  it("every topic after a gap in the channel, whatever the server heard", () => {
    expect(topicsToReadAgain(ready({ ago: {} }), 2_000, true)).toEqual(["order", "movement", "account"]);
  });
});
