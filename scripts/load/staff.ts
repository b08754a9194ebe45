import { randomBytes } from "node:crypto";
import { blankTicket, type PlaceTicketValues } from "@/lib/schemas/order-ticket";
import type { TicketPlaced } from "@/lib/schemas/order-ticket-data";
import { masterAccountId } from "@/server/sandbox/seed";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import type { Recorder } from "./recorder";
import { RequestFailed, Session } from "./session";

/**
 * What staff do all day, as tasks a session picks by its role's weights: open the home page, list and filter the
 * listings, open details, export a CSV, place and cancel orders, request journals and approve the other operator's.
 * Each task names its requests (`page …`, `GET …`, `action …`) so the figures read per page and per action.
 */
export const DEMO_PASSWORD = "brokerdesk-demo";

/** The demo users, and how a fleet of sessions is spread over them: operations most, the second operator approving. */
const MIX: { email: string; role: Role; share: number }[] = [
  { email: "ops@brokerdesk.test", role: "operations", share: 0.2 },
  { email: "ops2@brokerdesk.test", role: "operations", share: 0.2 },
  { email: "support@brokerdesk.test", role: "support", share: 0.25 },
  { email: "compliance@brokerdesk.test", role: "compliance", share: 0.2 },
  { email: "admin@brokerdesk.test", role: "admin", share: 0.15 },
];
type Role = "operations" | "support" | "compliance" | "admin";

function fleet(n: number): { email: string; role: Role }[] {
  const out: { email: string; role: Role }[] = [];
  MIX.forEach((m, i) => {
    const count = i === MIX.length - 1 ? n - out.length : Math.round(n * m.share);
    for (let k = 0; k < count && out.length < n; k++) out.push({ email: m.email, role: m.role });
  });
  return out;
}

/** `n` sessions of the fleet on `app` (the desk, or the balancer), signed in five at a time (a morning's arrivals, not one instant). */
export async function signInFleet(app: string, n: number, recorder: Recorder): Promise<Session[]> {
  const sessions = fleet(n).map((u) => new Session(app, u.email, u.role, recorder));
  for (let i = 0; i < sessions.length; i += 5) await Promise.all(sessions.slice(i, i + 5).map((s) => s.signIn(DEMO_PASSWORD)));
  return sessions;
}

// ACTIVE, funded seed accounts (server/sandbox/seed/accounts.ts STATUS_PLAN), as the benches use them.
const ACTIVE = [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 20].map(seedAccountId);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];
const crid = (prefix: string) => `${prefix}${Date.now().toString(36)}${randomBytes(4).toString("hex")}`.slice(0, 28);

interface ActionResult<T> {
  ok: boolean;
  data?: T;
  code?: string;
  serverError?: string;
  fieldErrors?: Record<string, string>;
}

/** Shared between sessions: held journals waiting for an approver who is not their maker. */
export class Desk {
  readonly held: { approvalId: string; maker: string }[] = [];
  /** Writes the load made and how each ended, for the soak's comparison with the upstream. */
  readonly orders = new Map<string, { accountId: string; cancelled: boolean }>();
  readonly journals = new Set<string>();
  constructor(readonly recorder: Recorder) {}
}

type Task = (s: Session, desk: Desk) => Promise<void>;

const page =
  (p: string): Task =>
  async (s) => {
    await s.request(`page ${p.split("?")[0]}`, p, { headers: { accept: "text/html" } });
  };
const data =
  (name: string, p: string): Task =>
  async (s) => {
    await s.json(`GET ${name}`, p);
  };

/** The listings and their data routes: a page, then its data route as the page reads it (first page, filtered). */
const READS: Record<string, Task> = {
  home: page("/"),
  accounts: async (s) => {
    await page("/accounts")(s, undefined as never);
    await s.json("GET /api/accounts", "/api/accounts");
  },
  accountsSearch: data("/api/accounts?q=", `/api/accounts?q=${encodeURIComponent(pick(["Chan", "Wong", "Lee", "Smith"]))}`),
  accountDetail: async (s) => {
    const id = pick(ACTIVE);
    await s.json("GET /api/accounts/[id]", `/api/accounts/${id}`);
    await s.json("GET /api/accounts/[id]/balance", `/api/accounts/${id}/balance`);
  },
  orders: async (s) => {
    await page("/orders")(s, undefined as never);
    await s.json("GET /api/orders", "/api/orders");
  },
  ordersFiltered: async (s) => {
    const q = pick([`account=${pick(ACTIVE)}`, "view=open", "side=BUY&status=FILLED", "symbol=AAPL"]);
    await s.json("GET /api/orders?filter", `/api/orders?${q}`);
  },
  orderDetail: async (s) => {
    const { rows } = await s.json<{ rows: { id: string }[] }>("GET /api/orders?filter", `/api/orders?account=${pick(ACTIVE)}`);
    if (rows.length) await s.json("GET /api/orders/[id]", `/api/orders/${pick(rows).id}`);
  },
  ordersCsv: async (s) => {
    await s.request("GET /api/orders/export (CSV)", `/api/orders/export?view=open`);
  },
  movements: async (s) => {
    await page("/movements")(s, undefined as never);
    await s.json("GET /api/movements", "/api/movements");
  },
  movementsFiltered: data("/api/movements?filter", `/api/movements?status=COMPLETED`),
  activities: async (s) => {
    await page("/activities")(s, undefined as never);
    await s.json("GET /api/activities", "/api/activities");
  },
  activitiesFiltered: data("/api/activities?filter", `/api/activities?type=TRADE`),
  audit: async (s) => {
    await page("/audit")(s, undefined as never);
    await s.json("GET /api/audit", "/api/audit");
  },
  alerts: data("/api/alerts", "/api/alerts"),
  approvals: data("/api/approvals", "/api/approvals"),
  staff: data("/api/staff", "/api/staff"),
};

/** A resting LIMIT BUY of one share well below the market (it never fills), then its cancel with a reason. */
const placeAndCancel: Task = async (s, desk) => {
  const accountId = pick(ACTIVE);
  const snap = await s.json<{ price?: string; last?: string; close?: string }>(
    "GET /api/market/…/snapshot",
    "/api/market/US/AAPL/snapshot",
  );
  const last = Number(snap.price ?? snap.last ?? snap.close ?? 200);
  const ticket: PlaceTicketValues = {
    ...blankTicket(),
    account_id: accountId,
    symbol: "AAPL",
    quantity: "1",
    // below the market, inside the pre-trade price band (10 %): it rests
    limit_price: (last * 0.95).toFixed(2),
    client_order_id: crid("ld"),
  };
  const placed = await s.action<ActionResult<TicketPlaced>>(
    "action orders.place",
    "server/actions/orders#placeOrderTicket",
    "/orders/new",
    ticket,
  );
  if (!placed.ok) return desk.recorder.fail("action orders.place", placed.serverError ?? placed.code ?? "refused");
  desk.orders.set(ticket.client_order_id, { accountId, cancelled: false });
  const { rows } = await s.json<{ rows: { id: string; clientOrderId: string }[] }>(
    "GET /api/orders?filter",
    `/api/orders?account=${accountId}&view=open`,
  );
  const row = rows.find((r) => r.clientOrderId === ticket.client_order_id);
  if (!row) return desk.recorder.fail("action orders.cancel", "the placed order is not in the blotter");
  const cancelled = await s.action<ActionResult<unknown>>("action orders.cancel", "server/actions/orders#cancelOrderAction", "/orders", {
    orderId: row.id,
    reasonCode: "CUSTOMER_REQUEST",
  });
  if (!cancelled.ok) return desk.recorder.fail("action orders.cancel", cancelled.serverError ?? cancelled.code ?? "refused");
  desk.orders.get(ticket.client_order_id)!.cancelled = true;
};

/** A cash journal from the master account: one in four above the approval threshold (held for the other operator). */
const journal: Task = async (s, desk) => {
  const held = Math.random() < 0.25;
  const request = {
    client_request_id: crid("lj"),
    from_account: masterAccountId(),
    to_account: pick(ACTIVE),
    currency: "USD",
    amount: held ? "50000.01" : "1.00",
  };
  const name = held ? "action movements.cash_journal (held)" : "action movements.cash_journal";
  const r = await s.action<ActionResult<{ pending?: boolean; approvalId?: string }>>(
    name,
    "server/actions/movements#createCashJournalAction",
    "/movements/new/cash-journal",
    request,
  );
  if (!r.ok) return desk.recorder.fail(name, r.serverError ?? r.code ?? "refused");
  desk.journals.add(request.client_request_id);
  if (r.data?.pending && r.data.approvalId) desk.held.push({ approvalId: r.data.approvalId, maker: s.email });
};

/** Approves the oldest held request this session did not make (a maker never approves their own). */
const approve: Task = async (s, desk) => {
  await s.json("GET /api/approvals", "/api/approvals");
  const i = desk.held.findIndex((h) => h.maker !== s.email);
  if (i < 0) return;
  const [{ approvalId }] = desk.held.splice(i, 1);
  const r = await s.action<ActionResult<unknown>>(
    "action approvals.approve",
    "server/actions/approvals#approveApprovalAction",
    `/approvals/${approvalId}`,
    {
      id: approvalId,
    },
  );
  if (!r.ok) desk.recorder.fail("action approvals.approve", r.serverError ?? r.code ?? "refused");
};

const WEIGHTS: Record<Role, [Task, number][]> = {
  operations: [
    [READS.home, 1],
    [READS.accounts, 2],
    [READS.accountsSearch, 1],
    [READS.accountDetail, 2],
    [READS.orders, 1],
    [READS.ordersFiltered, 2],
    [READS.orderDetail, 1],
    [READS.movements, 1],
    [READS.movementsFiltered, 1],
    [placeAndCancel, 2],
    [journal, 2],
    [approve, 2],
  ],
  support: [
    [READS.home, 1],
    [READS.accounts, 2],
    [READS.accountsSearch, 2],
    [READS.accountDetail, 2],
    [READS.orders, 2],
    [READS.ordersFiltered, 3],
    [READS.orderDetail, 3],
    [READS.ordersCsv, 0.3],
  ],
  compliance: [
    [READS.home, 1],
    [READS.activities, 2],
    [READS.activitiesFiltered, 2],
    [READS.audit, 2],
    [READS.alerts, 1],
    [READS.orders, 1],
    [READS.movements, 1],
    [READS.approvals, 1],
    [READS.ordersCsv, 0.3],
  ],
  admin: [
    [READS.home, 1],
    [READS.staff, 1],
    [READS.audit, 1],
    [READS.accounts, 1],
    [READS.orders, 1],
  ],
};

function choose(role: Role): Task {
  const tasks = WEIGHTS[role];
  let r = Math.random() * tasks.reduce((n, [, w]) => n + w, 0);
  for (const [task, w] of tasks) if ((r -= w) <= 0) return task;
  return tasks[0][0];
}

/** One person at the desk until `until`: a task, then a pause (exponential, mean `thinkMs`), again. */
export async function work(s: Session, desk: Desk, until: number, thinkMs: number): Promise<void> {
  while (Date.now() < until) {
    try {
      await choose(s.role as Role)(s, desk);
    } catch (error) {
      // The request's own error is recorded where it failed; anything else (a parse, a missing row) here.
      if (!(error instanceof RequestFailed)) desk.recorder.fail("task", (error as Error).message.slice(0, 120));
    }
    const pause = Math.min(5 * thinkMs, -Math.log(1 - Math.random()) * thinkMs);
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(pause, until - Date.now()))));
  }
}
