import { describe, expect, it, vi } from "vitest";
import { roleAccess } from "../helpers/staff";
import type { LiveReady } from "@/lib/live-ready";
import { appendAudit } from "@/server/audit/trail";
import { prepareAppDb } from "@/server/db";
import { openEngine, type Engine } from "@/server/db/engine";
import { ingest } from "@/server/books/ingest";
import { fromStream } from "@/server/events/ingest";
import { LIVE_NOTICE_MS, liveStream, MERGED_ACCOUNTS, noticeFor, type LiveNotice } from "@/server/events/live";
import { logger } from "@/server/log";
import { notifyChange } from "@/server/notices/channel";
import { onChange, type ChangeNotice } from "@/server/notices/listen";
import { testEngines } from "../helpers/engines";
import { readEvents } from "../helpers/event-stream";

/** Change notices: every app instance on one database hears what any of them projected; each role gets its share. */
const trade = (id: string, account = "A9") =>
  JSON.stringify({
    id,
    event_type: "TRADE",
    timestamp: new Date().toISOString(),
    payload: {
      biz_type: "TRADE",
      scene_type: "CANCEL_SUCCESS",
      account_id: account,
      client_order_id: `c-${id}`,
      order_status: "CANCELLED",
    },
  });

const next = (got: ChangeNotice[], ms = 3000) =>
  new Promise<ChangeNotice>((resolve, reject) => {
    const end = Date.now() + ms;
    const t = setInterval(() => {
      if (got.length) {
        clearInterval(t);
        resolve(got[0]);
      } else if (Date.now() > end) {
        clearInterval(t);
        reject(new Error("no notice"));
      }
    }, 10);
  });

describe.each(testEngines())("change notices ($name)", (te) => {
  /** Runs `body` on a fresh app database while collecting its change notices in `got`. */
  const withNotices = async (body: (db: Awaited<ReturnType<typeof prepareAppDb>>, got: ChangeNotice[]) => Promise<void>) => {
    const opened = await te.open();
    try {
      const db = await prepareAppDb(opened.engine);
      const got: ChangeNotice[] = [];
      const off = await onChange(db.engine, (n) => got.push(n));
      await body(db, got);
      off();
    } finally {
      await opened.close();
    }
  };

  it("a projected change is announced with its topic and account, after commit", async () => {
    await withNotices(async (db, got) => {
      await ingest(db.engine, [fromStream(trade("n1"))]);
      expect(await next(got)).toEqual({ topics: ["order"], accounts: ["A9"] });
    });
  });

  it("a batch of many accounts names every one of them, in notices of at most 50", async () => {
    await withNotices(async (db, got) => {
      const accounts = Array.from({ length: 120 }, (_, i) => `M${i}`);
      await ingest(
        db.engine,
        accounts.map((a, i) => fromStream(trade(`m${i}`, a))),
      );
      await vi.waitFor(() => expect(got.flatMap((n) => n.accounts)).toHaveLength(120), { timeout: 3_000 });
      expect(got.flatMap((n) => n.accounts)).toEqual(accounts);
      expect(got.map((n) => n.accounts.length)).toEqual([50, 50, 20]);
      expect(got.every((n) => n.topics.join() === "order")).toBe(true);
    });
  });

  it("every audit entry is announced to the trail; a staff user's change, an approval's life and an alert's decision to their lists", async () => {
    await withNotices(async (db, got) => {
      await appendAudit(db, { action: "accounts.update", target: "account:A1", outcome: "success" });
      expect(await next(got)).toEqual({ topics: ["audit"], accounts: [] });
      const announced: [entry: Parameters<typeof appendAudit>[1], topics: string[]][] = [
        [{ action: "staff.create", outcome: "success" }, ["audit", "staff"]],
        [{ action: "movements.cash_journal", outcome: "held" }, ["audit", "approval"]],
        [{ action: "approvals.expire", outcome: "success" }, ["audit", "approval"]],
        [{ action: "tokens.revoke", outcome: "success" }, ["audit", "token"]],
        // A cleared or escalated alert leaves the open ones: the queue and the menu's count read again.
        [{ action: "alerts.decide", outcome: "success" }, ["audit", "alert"]],
      ];
      for (const [entry, topics] of announced) {
        got.length = 0;
        await appendAudit(db, entry);
        expect((await next(got)).topics, entry.action).toEqual(topics);
      }
    });
  });

  /**
   * Opens the live channel of `db` for operations and reads its `change` notices into `changes`; resolves once the
   * channel says `ready` (it listens before it says so). `arrived(n)` resolves once `n` notices were read.
   */
  const openLive = async (db: Awaited<ReturnType<typeof prepareAppDb>>) => {
    const abort = new AbortController();
    const res = liveStream(db.engine, roleAccess("operations"), 30_000, abort.signal);
    const changes: LiveNotice[] = [];
    const sentAt: number[] = [];
    const waiting: { n: number; resolve: () => void }[] = [];
    let ready!: () => void;
    const listening = new Promise<void>((r) => (ready = r));
    const reading = readEvents(res.body!, (e) => {
      if (e.event === "ready") ready();
      if (e.event !== "change") return;
      // Each leaves with the server's clock (`at`), checked once below; the rest compared as it was merged.
      const { at, ...notice } = JSON.parse(e.data!) as LiveNotice & { at: number };
      sentAt.push(at);
      changes.push(notice);
      for (const w of waiting) if (changes.length >= w.n) w.resolve();
    }).done;
    await listening;
    const arrived = (n: number) => new Promise<void>((resolve) => (changes.length >= n ? resolve() : waiting.push({ n, resolve })));
    return { changes, sentAt, arrived, abort, reading };
  };

  /** Subscribes now (after the listeners before it); `all` resolves once `n` change notices of `engine` were heard. */
  const hearing = async (engine: Engine, n: number) => {
    let count = 0;
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    const off = await onChange(engine, () => {
      if (++count === n) done();
    });
    return { all: all.finally(off) };
  };

  /** Lets what is already on its way through the stream arrive (the stream's pipes are promises, not timers). */
  const settle = () => new Promise((r) => setImmediate(r));

  it("a live channel hears a burst of changes as one notice at once and the rest merged a window later, none lost", async () => {
    await withNotices(async (db) => {
      const live = await openLive(db);
      const { changes } = live;
      const ten = await hearing(db.engine, 10);
      let began = 0;
      let committed = 0;
      // The window runs on a clock moved by hand, so a slow delivery of the burst cannot make it look shorter or
      // longer: the timers' clock only (the databases' I/O is real), and a native timer cleared while it runs is.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldClearNativeTimers: true });
      try {
        // Ten notices committed together, all heard by the channel before its window's clock moves at all.
        began = Date.now();
        await db.engine.transaction(async (tx) => {
          for (let i = 0; i < 10; i++) await notifyChange(tx, { topics: [i % 2 ? "order" : "movement"], accounts: [`B${i}`] });
        });
        committed = Date.now();
        await ten.all;
        await live.arrived(1);
        await settle();
        // The first at once; the nine others held until the window ends, not a moment before.
        expect(changes).toEqual([{ topics: ["movement"], accounts: ["B0"] }]);
        await vi.advanceTimersByTimeAsync(LIVE_NOTICE_MS - 1);
        await settle();
        expect(changes).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1);
        await live.arrived(2);
      } finally {
        live.abort.abort();
        vi.useRealTimers();
      }
      await live.reading;
      // The nine others merged into one, none lost.
      expect(changes.map((c) => c.accounts.length)).toEqual([1, 9]);
      expect(changes[1].topics.sort()).toEqual(["movement", "order"]);
      expect(changes.flatMap((c) => c.accounts)).toEqual(Array.from({ length: 10 }, (_, i) => `B${i}`));
      // Each left with the server's clock, after what it tells of was committed: the merged one after all ten were.
      expect(live.sentAt[0]).toBeGreaterThanOrEqual(began);
      expect(live.sentAt[1]).toBeGreaterThanOrEqual(committed);
    });
  });

  it("a burst naming more accounts than a merged notice holds says that more changed than it names", async () => {
    await withNotices(async (db) => {
      const live = await openLive(db);
      const { changes } = live;
      const accounts = Array.from({ length: MERGED_ACCOUNTS + 11 }, (_, i) => `C${i}`);
      const heard = await hearing(db.engine, accounts.length);
      // All of the burst in one window however long its delivery takes (as above).
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldClearNativeTimers: true });
      try {
        await db.engine.transaction(async (tx) => {
          for (const a of accounts) await notifyChange(tx, { topics: ["movement"], accounts: [a] });
        });
        await heard.all;
        await vi.advanceTimersByTimeAsync(LIVE_NOTICE_MS);
        await live.arrived(2);
      } finally {
        live.abort.abort();
        vi.useRealTimers();
      }
      await live.reading;
      expect(changes).toHaveLength(2);
      expect(changes[0]).toEqual({ topics: ["movement"], accounts: ["C0"] });
      // The merged rest names as many as it holds and says there were more: the last ten are not named.
      expect(changes[1].accounts).toEqual(accounts.slice(1, MERGED_ACCOUNTS + 1));
      expect(changes[1].moreAccounts).toBe(true);
    });
  });

  it("a listener that throws keeps the notice from no listener after it", async () => {
    await withNotices(async (db, got) => {
      const failed = vi.spyOn(logger, "error").mockImplementation(() => undefined);
      const offBroken = await onChange(db.engine, () => {
        throw new Error("a broken reader");
      });
      const after: ChangeNotice[] = [];
      const offAfter = await onChange(db.engine, (n) => after.push(n));
      try {
        await notifyChange(db.engine, { topics: ["order"], accounts: ["D1"] });
        expect(await next(after)).toEqual({ topics: ["order"], accounts: ["D1"] });
        expect(got).toHaveLength(1);
        expect(failed).toHaveBeenCalledTimes(1);
      } finally {
        offBroken();
        offAfter();
        failed.mockRestore();
      }
    });
  });

  it("a reader that leaves while its channel subscribes leaves nothing listening behind", async () => {
    await withNotices(async (db) => {
      const failed = vi.spyOn(logger, "error").mockImplementation(() => undefined);
      try {
        // Gone by either road before the channel has subscribed: the request aborted, the stream cancelled.
        const abort = new AbortController();
        const aborted = liveStream(db.engine, roleAccess("operations"), 30_000, abort.signal);
        abort.abort();
        const cancelled = liveStream(db.engine, roleAccess("operations"), 30_000, new AbortController().signal);
        await cancelled.body!.cancel();
        const heard: ChangeNotice[] = [];
        const off = await onChange(db.engine, (n) => heard.push(n));
        await notifyChange(db.engine, { topics: ["movement"], accounts: ["D2"] });
        expect(await next(heard)).toEqual({ topics: ["movement"], accounts: ["D2"] });
        off();
        // Neither channel heard it: a closed stream written to would have thrown in the notices' fan-out.
        expect(failed).not.toHaveBeenCalled();
        expect(await aborted.body!.getReader().read()).toEqual({ done: true, value: undefined });
      } finally {
        failed.mockRestore();
      }
    });
  });

  it("the channel's ready says how long ago this process heard each of the reader's topics, and how long it has listened", async () => {
    await withNotices(async (db, got) => {
      await notifyChange(db.engine, { topics: ["movement", "audit"], accounts: ["E1"] });
      await next(got);
      const opened = Date.now();
      const abort = new AbortController();
      const res = liveStream(db.engine, roleAccess("operations"), 30_000, abort.signal);
      let ready: LiveReady | undefined;
      const reading = readEvents(res.body!, (e) => {
        if (e.event === "ready") {
          ready = JSON.parse(e.data!) as LiveReady;
          abort.abort();
        }
      }).done;
      await reading;
      expect(ready!.topics).toContain("movement");
      expect(ready!.topics).not.toContain("audit");
      // The movement notice was heard before the channel opened, after the process began to listen; the audit trail is
      // not operations' to read, so its notice is not told of (a server's listener also says "stream" as it starts).
      expect(ready!.ago).toHaveProperty("movement");
      expect(ready!.ago).not.toHaveProperty("audit");
      expect(ready!.ago.movement).toBeGreaterThanOrEqual(0);
      expect(ready!.listeningMs).toBeGreaterThanOrEqual(ready!.ago.movement);
      // And the server's clock as it was sent, the time against which a page's read is compared.
      expect(ready!.now).toBeGreaterThanOrEqual(opened);
      expect(ready!.now).toBeLessThanOrEqual(Date.now());
    });
  });

  it.runIf(te.name === "postgres")("two app instances (two pools on one server) both hear a change either projected", async () => {
    const opened = await te.open();
    const second = await openEngine({ url: opened.url!, poolSize: 2 });
    try {
      const a = await prepareAppDb(opened.engine);
      const b = await prepareAppDb(second);
      const heardA: ChangeNotice[] = [];
      const heardB: ChangeNotice[] = [];
      const offA = await onChange(a.engine, (n) => heardA.push(n));
      const offB = await onChange(b.engine, (n) => heardB.push(n));
      heardA.length = 0;
      heardB.length = 0;
      await ingest(a.engine, [fromStream(trade("n2"))]);
      expect((await next(heardA)).topics).toEqual(["order"]);
      expect((await next(heardB)).topics).toEqual(["order"]);
      offA();
      offB();
    } finally {
      await second.close();
      await opened.close();
    }
  });
});

describe("noticeFor (what each role's live channel carries)", () => {
  const n = { topics: ["order", "movement", "stream", "account"], accounts: ["A1"] };
  it("support hears orders and accounts, not movements or the stream", () => {
    expect(noticeFor(roleAccess("support"), n)).toEqual({ topics: ["order", "account"], accounts: ["A1"] });
  });
  it("compliance hears orders, movements and accounts", () => {
    expect(noticeFor(roleAccess("compliance"), n)).toEqual({ topics: ["order", "movement", "account"], accounts: ["A1"] });
  });
  it("new alerts reach compliance and admin, never support or operations", () => {
    const a = { topics: ["movement", "alert"], accounts: ["A1"] };
    const audit = { topics: ["audit", "staff", "approval"], accounts: [] };
    expect(noticeFor(roleAccess("admin"), audit)?.topics).toEqual(["audit", "staff", "approval"]);
    expect(noticeFor(roleAccess("compliance"), audit)?.topics).toEqual(["audit", "approval"]);
    expect(noticeFor(roleAccess("operations"), audit)?.topics).toEqual(["approval"]);
    expect(noticeFor(roleAccess("support"), audit)).toBeUndefined();
    expect(noticeFor(roleAccess("compliance"), a)?.topics).toEqual(["movement", "alert"]);
    expect(noticeFor(roleAccess("admin"), a)?.topics).toEqual(["movement", "alert"]);
    expect(noticeFor(roleAccess("operations"), a)?.topics).toEqual(["movement"]);
    expect(noticeFor(roleAccess("support"), a)).toBeUndefined();
  });
  it("a token created or revoked reaches every role's lists of tokens, and says nothing else", () => {
    const token = { topics: ["audit", "token"], accounts: [] };
    expect(noticeFor(roleAccess("support"), token)).toEqual({ topics: ["token"], accounts: [] });
    expect(noticeFor(roleAccess("admin"), token)?.topics).toEqual(["audit", "token"]);
  });
  it("an upstream module's state change reaches every role's status page", () => {
    for (const role of ["admin", "operations", "support", "compliance"] as const) {
      expect(noticeFor(roleAccess(role), { topics: ["status"], accounts: [] })).toEqual({ topics: ["status"], accounts: [] });
    }
  });
  it("nothing at all when no topic is readable", () => {
    expect(noticeFor(roleAccess("support"), { topics: ["movement", "stream"], accounts: ["A1"] })).toBeUndefined();
  });
});
