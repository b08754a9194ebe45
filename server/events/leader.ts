import "server-only";
import type { Engine, Queryable } from "@/server/db/engine";
import { acquireLease, holdsLease, releaseLease, renewLease } from "./queries/lease";

/**
 * One active consumer per database, by lease (brokerdesk.leases, the database's clock): the leader renews it every
 * `RENEW_MS`; one that stops renewing (killed, frozen by SIGSTOP, cut off from the database) loses it `LEASE_MS`
 * after its last renewal, and a standby polling for it takes over. A connection of its own would not do: a frozen
 * process keeps its connection, and with it a session lock, alive.
 *
 * A leader steps down (`lost`) when a renewal finds the lease taken over, or when its own clock says the lease ran
 * out before a renewal got through (the process was frozen, or the database unreachable): it cannot know whether
 * another took over. Its writes are fenced too: `fence`, inside the transaction that stores events, refuses them
 * once the lease has a new term, so an old leader that wakes up mid-batch stores nothing.
 */
const LEASE = "event-consumer";
const LEASE_MS = 6_000;
const RENEW_MS = 1_500;

export interface Leadership {
  /** Resolves when leadership is lost (taken over, or not renewed in time). */
  lost: Promise<void>;
  /** Whether this leader still holds the lease, as far as it knows (a lease it could not renew in time it does not). */
  holds(): boolean;
  /** Inside a transaction: true while the lease is this leader's; on false the leadership is lost and nothing may be stored. */
  fence(tx: Queryable): Promise<boolean>;
  release(): Promise<void>;
}

export interface LeadOptions {
  /** Called after each renewal that went through: the holder's heartbeat, only ever written while it holds the lease. */
  renewed?: () => Promise<void>;
}

export async function tryLead(engine: Engine, holder: string, o: LeadOptions = {}): Promise<Leadership | undefined> {
  const asked = Date.now();
  const term = await acquireLease(engine, LEASE, holder, LEASE_MS);
  if (term === undefined) return undefined;
  // Measured from before the request: the lease may run out on the server no later than this.
  let deadline = asked + LEASE_MS;
  let held = true;
  let resolveLost!: () => void;
  const lost = new Promise<void>((r) => (resolveLost = r));
  const stepDown = () => {
    held = false;
    clearInterval(renewal);
    resolveLost();
  };
  const renew = async () => {
    if (!held) return;
    if (Date.now() >= deadline) return stepDown();
    const sent = Date.now();
    const ok = await renewLease(engine, LEASE, holder, term, LEASE_MS).catch(() => undefined);
    if (ok === false || Date.now() >= deadline) return stepDown();
    if (ok) {
      deadline = sent + LEASE_MS;
      await o.renewed?.().catch(() => undefined);
    }
  };
  let renewing = false;
  const renewal = setInterval(() => {
    if (renewing) return;
    renewing = true;
    void renew().finally(() => (renewing = false));
  }, RENEW_MS);
  return {
    lost,
    holds: () => {
      // Past the deadline it may have been taken over already: no write as the leader after it.
      if (held && Date.now() >= deadline) stepDown();
      return held;
    },
    fence: async (tx) => {
      const ok = held && Date.now() < deadline && (await holdsLease(tx, LEASE, holder, term));
      if (!ok) stepDown();
      return ok;
    },
    release: async () => {
      if (held) await releaseLease(engine, LEASE, holder, term).catch(() => undefined);
      stepDown();
    },
  };
}
