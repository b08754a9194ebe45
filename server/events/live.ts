import "server-only";
import { can, type Access, type Permission } from "@/lib/auth/permissions";
import type { StreamStatus } from "@/lib/stream-health";
import { throttle } from "@/lib/throttle";
import type { Engine } from "@/server/db/engine";
import { streamStatus } from "@/server/books/health";
import type { LiveReady } from "@/lib/live-ready";
import { heardSoFar, onChange, type ChangeNotice, type HeardSoFar } from "@/server/notices/listen";

/**
 * The browser's live channel (server-sent events): `change` notices filtered to what the reader may read, and the
 * stream's `status` (for the banner every signed-in page shows) on each stream notice and every 5 s, which also
 * keeps the connection alive through proxies.
 */
const TOPIC_PERMISSION: Record<string, Permission> = {
  order: "orders:read",
  movement: "movements:read",
  // A bulk journal batch's rows progressed (server/bulk-journals/send.ts).
  "bulk-journal": "movements:read",
  account: "accounts:read",
  stream: "stream:read",
  alert: "alerts:read",
  activities: "activities:read",
  // Sent with every audit entry (server/audit/trail.ts).
  audit: "audit:read",
  staff: "staff:manage",
  approval: "approvals:read",
  // Says only that some token was created or revoked: every list of tokens reads its page again.
  token: "tokens:own",
  // Sent when an upstream module's state changes (server/status/evaluate.ts).
  status: "status:read",
  // The same for the command line's access keys.
  "access-key": "cli:own",
  // A bulk statements run's progress (server/statements/bulk.ts).
  statements: "statements:read",
  // A reconciliation run's progress and the breaks' changes (server/reconciliation).
  reconciliation: "reconciliation:read",
  // A scheduled report's runs and their mails (server/reports).
  reports: "reports:manage",
};

/** The part of a notice a role may receive; undefined when nothing is left. */
export function noticeFor(role: Access, n: ChangeNotice): ChangeNotice | undefined {
  const topics = n.topics.filter((t) => TOPIC_PERMISSION[t] && can(role, TOPIC_PERMISSION[t]));
  if (!topics.length) return undefined;
  return { topics, accounts: can(role, "accounts:read") ? n.accounts : [] };
}

// One status read per process and second, however many browsers listen.
let cached: { at: number; value: Promise<StreamStatus> } | undefined;
function sharedStatus(engine: Engine, silenceMs: number): Promise<StreamStatus> {
  if (!cached || Date.now() - cached.at > 1_000) {
    const value = streamStatus(engine, silenceMs);
    cached = { at: Date.now(), value };
    value.catch(() => (cached = undefined));
  }
  return cached.value;
}

/**
 * The most often one reader hears of changes. An upstream busy with fills has the books project a batch many times a
 * second, and every notice made each open list read its page again: now the first notice after a quiet spell goes at
 * once and the rest of a burst goes merged, one every LIVE_NOTICE_MS (lib/throttle.ts).
 */
export const LIVE_NOTICE_MS = 250;
/**
 * How many accounts a merged notice names at most: all of a window's notices' (server/books/ingest.ts names every
 * account of a batch, 50 a notice), unless a window brings more than this many; then it names the first of them and
 * says `moreAccounts`, so that a reader of one account knows its account may be among those not named.
 */
export const MERGED_ACCOUNTS = 200;

/** A notice as a live channel sends it. */
export type LiveNotice = ChangeNotice & { moreAccounts?: true };

function mergeNotices(a: LiveNotice, b: LiveNotice): LiveNotice {
  const accounts = [...new Set([...a.accounts, ...b.accounts])];
  const more = a.moreAccounts || b.moreAccounts || accounts.length > MERGED_ACCOUNTS;
  return {
    topics: [...new Set([...a.topics, ...b.topics])],
    accounts: accounts.slice(0, MERGED_ACCOUNTS),
    ...(more ? { moreAccounts: true as const } : {}),
  };
}

/** The channel's first event: the reader's topics, and what of them this process heard before it subscribed. */
function readyFor(topics: string[], heard: HeardSoFar): LiveReady {
  const ago: Record<string, number> = {};
  for (const t of topics) if (heard.ago[t] !== undefined) ago[t] = heard.ago[t];
  return { topics, listeningMs: heard.listeningMs, ago, now: Date.now() };
}

/** More of the channel for one reader: given `send`, starts what it sends and returns what stops it. */
export type LiveAttachment = (send: (event: string, data: unknown) => void) => () => void;

export function liveStream(engine: Engine, role: Access, silenceMs: number, signal: AbortSignal, attach?: LiveAttachment): Response {
  const encoder = new TextEncoder();
  let cleanup = () => undefined as void;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      // Set before the first await: a reader that leaves while the channel subscribes ends it all the same.
      let open = true;
      // Each sent with `at`, the server's clock as it leaves (after every change it tells of was committed): a page whose
      // data was read before that may not show them (components/live/live-provider.tsx).
      const changes = throttle<LiveNotice>((n) => send("change", { ...n, at: Date.now() }), mergeNotices, LIVE_NOTICE_MS);
      // What ends the channel's parts, in the order they started.
      const stops: (() => void)[] = [() => changes.stop()];
      cleanup = () => {
        if (!open) return;
        open = false;
        for (const stop of stops) stop();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const send = (event: string, data: unknown) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          // The stream ended under us (its reader went without a word): this channel stops, never the notices' fan-out.
          cleanup();
        }
      };
      const status = () =>
        sharedStatus(engine, silenceMs).then(
          (s) => send("status", s),
          () => undefined,
        );
      signal.addEventListener("abort", cleanup, { once: true });
      if (signal.aborted) cleanup();
      const unsubscribe = await onChange(engine, (n) => {
        const mine = noticeFor(role, n);
        if (mine) changes.push(mine);
        if (n.topics.includes("stream")) void status();
      });
      if (!open) return unsubscribe();
      const timer = setInterval(() => void status(), 5_000);
      stops.push(unsubscribe, () => clearInterval(timer));
      const detach = attach?.(send);
      if (detach) stops.push(detach);
      const topics = Object.keys(TOPIC_PERMISSION).filter((t) => can(role, TOPIC_PERMISSION[t]));
      send("ready", readyFor(topics, heardSoFar(engine)));
      await status();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" },
  });
}
