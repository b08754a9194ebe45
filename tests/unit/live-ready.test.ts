import { describe, expect, it } from "vitest";
import { HeardLog, heardAtReady, topicsToReadAgain, type LiveReady } from "@/lib/live-ready";
import { topicsOfQueryRoot } from "@/lib/stream-health";

const NOW = Date.UTC(2026, 11, 2, 12);
const ready = (over: Partial<LiveReady> = {}): LiveReady => ({
  topics: ["order", "movement", "account"],
  listeningMs: 60_000,
  ago: { order: 400, movement: 9_000 },
  now: NOW,
  ...over,
});

/** lib/live-ready.ts: what a page reads again when its live channel says ready. */
describe("topicsToReadAgain", () => {
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

/** lib/live-ready.ts: when a tab knows each topic changed, for data read on the server and shown later. */
describe("heardAtReady and HeardLog", () => {
  it("a topic heard before the channel opened changed then; one never heard, when the process began to listen", () => {
    expect(heardAtReady(ready(), false)).toEqual({ order: NOW - 400, movement: NOW - 9_000, account: NOW - 60_000 });
    // A process that has not listened yet knows nothing of before: every topic may have changed just now.
    expect(heardAtReady(ready({ listeningMs: 0, ago: {} }), false)).toEqual({ order: NOW, movement: NOW, account: NOW });
  });

  it("after a gap in the channel, every topic may have changed up to now", () => {
    expect(heardAtReady(ready(), true)).toEqual({ order: NOW, movement: NOW, account: NOW });
  });

  it("data read before a change the tab heard of is behind; read after it, or of another topic, it is not", () => {
    const log = new HeardLog();
    expect(log.changedSince(["movement"], 0)).toBe(false);
    log.hear(["movement", "account"], NOW);
    expect(log.changedSince(["movement"], NOW - 1)).toBe(true);
    // Read the moment the notice left: the read may have begun before the change was committed.
    expect(log.changedSince(["movement"], NOW)).toBe(true);
    expect(log.changedSince(["movement"], NOW + 1)).toBe(false);
    expect(log.changedSince(["order"], NOW - 1)).toBe(false);
    expect(log.changedSince(["order", "account"], NOW - 1)).toBe(true);
    // An older notice heard late (another instance's ready) does not move a topic's time back.
    log.hear(["movement"], NOW - 5_000);
    expect(log.changedSince(["movement"], NOW)).toBe(true);
  });

  it("a query root's topics are those whose notices make it stale", () => {
    expect(topicsOfQueryRoot("movements")).toEqual(["movement"]);
    expect(topicsOfQueryRoot("breaks")).toEqual(["reconciliation"]);
    expect(topicsOfQueryRoot("tokens-all")).toEqual(["token"]);
    expect(topicsOfQueryRoot("no-such-root")).toEqual([]);
  });
});
