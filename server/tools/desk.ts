import "server-only";
import { z } from "zod";
import { env } from "@/lib/env";
import { accountListParams, SEARCH_FIELDS } from "@/lib/schemas/account-list-params";
import { activityListParams } from "@/lib/schemas/activity-list";
import { APPROVAL_STATUSES, approvalListParams } from "@/lib/schemas/approvals";
import { movementListParams, MOVEMENT_TYPES } from "@/lib/schemas/movement-list";
import { orderListParams, ORDER_VIEWS } from "@/lib/schemas/order-list";
import { ALERT_STATUSES, alertListParams } from "@/lib/schemas/surveillance";
import { getAccountBalance, getAccountPositions, listAccountsPage, requireAccountFor } from "@/server/accounts/accounts";
import { activityPage } from "@/server/activities/explorer";
import { approveApproval, rejectApproval } from "@/server/approvals/actions";
import { approvalInboxPage } from "@/server/approvals/inbox";
import { streamHealth } from "@/server/books/health";
import { broker } from "@/server/broker";
import { listMovementPage } from "@/server/movement-list/queries/list";
import { movementAction } from "@/server/movements/action";
import { cashJournal } from "@/server/movements/cash-journal";
import { cancelOrder, replaceOrder } from "@/server/orders/actions";
import { getOrderDetail } from "@/server/orders/detail";
import { listOrders } from "@/server/orders/queries/blotter";
import { listAlerts } from "@/server/surveillance/queries/alerts";
import { actionTool, defineTool } from "./tool";

/**
 * The desk's own jobs as tools: each reads what its page reads (the same list parameters, parsed by the same
 * schema as the page's URL, and the same query function) or runs the page's own action.
 */

/** A list tool's arguments as the page's URL would carry them, parsed by that page's own list parameters. */
const asQuery = (input: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(input).flatMap(([k, v]) => (v === undefined || v === null || v === "" ? [] : [[k, String(v)]])));

const cursor = z.string().max(512).optional().describe("The next_cursor of the previous page, to read the next one");
const account = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .describe("An account's id or its account number (e.g. VBD1000001)");
const day = z.iso.date().describe("A day, YYYY-MM-DD (UTC)");
/** A page of rows: the rows as the page shows them, and where the next page starts. */
const page = z.object({ rows: z.array(z.looseObject({})), next_cursor: z.string().nullable() });
const toPage = (p: { rows: object[]; nextCursor?: string }) => ({
  rows: p.rows as Record<string, unknown>[],
  next_cursor: p.nextCursor ?? null,
});

/** A list tool's page: its arguments parsed by the page's own list parameters, read by the page's own query. */
async function listed<S extends { cursor?: string; size: number }, F>(
  params: { parse: (query: URLSearchParams) => S; filters: (state: S) => F },
  input: Record<string, unknown>,
  read: (filter: F, paging: { cursor?: string; limit: number }) => Promise<{ rows: object[]; nextCursor?: string }>,
) {
  const state = params.parse(asQuery(input));
  return toPage(await read(params.filters(state), { cursor: state.cursor, limit: state.size }));
}

/** A write's answer: the action's result, or (status "held") the approval request an approval rule made of it. */
const written = z.looseObject({
  status: z.string().optional().describe("held: an approval rule holds it until a second person approves"),
  approvalId: z.string().optional(),
  message: z.string().optional(),
});

export const DESK_TOOLS = [
  defineTool({
    name: "find_accounts",
    title: "Find accounts",
    description:
      "Finds virtual accounts by name, account number or external number (q), or lists them by status, type, option level or " +
      "trading permission, newest first. Tax ids and addresses are masked unless your role sees them.",
    permission: "accounts:read",
    readOnly: true,
    input: z.object({
      q: z.string().trim().max(64).optional().describe("A name, an account number or an external account number"),
      by: z.enum(SEARCH_FIELDS).optional().describe("What q is; auto guesses from its shape"),
      status: z.string().max(32).optional(),
      size: z.union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)]).optional(),
      cursor,
    }),
    output: page,
    run: async (input) => toPage(await listAccountsPage(accountListParams.parse(asQuery(input)))),
  }),
  defineTool({
    name: "get_account_summary",
    title: "Account summary",
    description: "One account: its details (PII masked for your role where it must be), its balance by currency and its positions.",
    permission: "accounts:read",
    readOnly: true,
    input: z.object({ account_id: z.string().trim().min(1).max(64).describe("The account's id") }),
    output: z.object({ account: z.looseObject({}), balance: z.unknown(), positions: z.unknown() }),
    run: async ({ account_id }, ctx) => {
      const acct = await requireAccountFor(ctx.staff, account_id);
      const [balance, positions] = await Promise.all([getAccountBalance(account_id), getAccountPositions(account_id)]);
      return { account: acct as unknown as Record<string, unknown>, balance, positions };
    },
  }),
  defineTool({
    name: "find_orders",
    title: "Find orders",
    description:
      "The desk's order blotter, newest first: by account (id or number), symbol, status, side, view (open, working_today, " +
      "filled_today, failed) and placing day. Each row has the desk's order id (for get_order, cancel_order, replace_order).",
    permission: "orders:read",
    readOnly: true,
    input: z.object({
      account: account.optional(),
      symbol: z.string().trim().toUpperCase().max(32).optional(),
      view: z.enum(ORDER_VIEWS).optional(),
      status: z.string().trim().toUpperCase().max(32).optional(),
      side: z.enum(["BUY", "SELL", "SHORT"]).optional(),
      from: day.optional(),
      to: day.optional(),
      cursor,
    }),
    output: page,
    run: (input, ctx) => listed(orderListParams, input, (filter, paging) => listOrders(ctx.db.engine, filter, paging)),
  }),
  defineTool({
    name: "get_order",
    title: "Order detail",
    description: "One order of the desk by its desk id: its fields, its timeline of events (who changed it and why) and its executions.",
    permission: "orders:read",
    readOnly: true,
    input: z.object({ order_id: z.string().regex(/^\d{1,18}$/, "The desk's order id (digits, from find_orders)") }),
    output: z.looseObject({}),
    run: async ({ order_id }, ctx) => (await getOrderDetail(ctx.db.engine, order_id)) as unknown as Record<string, unknown>,
  }),
  actionTool({
    name: "cancel_order",
    title: "Cancel an order",
    description:
      "Cancels a customer's open order, with a reason code (CUSTOMER_REQUEST, WRONG_PRICE_OR_QUANTITY, DUPLICATE, RISK, OTHER; " +
      "OTHER needs reasonText). Refused with nothing sent when the order is no longer open. The cancellation is confirmed later " +
      "by the upstream: read get_order to see it.",
    destructive: true,
    action: cancelOrder,
    output: written,
  }),
  actionTool({
    name: "replace_order",
    title: "Replace an order",
    description:
      "Changes a customer's open order: quantity, limitPrice, stopPrice, timeInForce or expireDate (at least one), with a reason " +
      "code as for cancel_order. Refused with nothing sent when the order is no longer open.",
    destructive: true,
    action: replaceOrder,
    output: written,
  }),
  actionTool({
    name: "request_cash_journal",
    title: "Cash journal",
    description:
      "Moves cash between two accounts (from_account, to_account: account ids; currency; amount as a decimal string). " +
      "client_request_id (up to 32 letters and digits) makes it one journal however often it is sent: reuse it on a retry. " +
      "An approval rule may hold it: the answer is then status held, and it is sent when a second person approves it.",
    action: movementAction(cashJournal),
    output: written,
  }),
  defineTool({
    name: "list_movements",
    title: "Money movements",
    description:
      "Journals, instant funding, FX requests and instant exchanges, newest first: by type, status, account (id or number), " +
      "currency, requester email and day.",
    permission: "movements:read",
    readOnly: true,
    input: z.object({
      type: z.enum(MOVEMENT_TYPES).optional(),
      status: z.string().trim().toUpperCase().max(32).optional(),
      account: account.optional(),
      currency: z.string().trim().toUpperCase().length(3).optional(),
      requester: z.email().optional(),
      from: day.optional(),
      to: day.optional(),
      cursor,
    }),
    output: page,
    run: async (input, ctx) => {
      const params = movementListParams.parse(asQuery(input));
      return toPage(
        await listMovementPage(ctx.db.engine, movementListParams.filters(params), { cursor: params.cursor, limit: params.size }),
      );
    },
  }),
  defineTool({
    name: "list_my_approvals",
    title: "Approvals waiting for me",
    description:
      "Requests held for approval that you did not make (a maker never approves their own), oldest deadline first, with what " +
      "each will do; or, with status, the inbox's requests in that status.",
    permission: "approvals:read",
    readOnly: true,
    input: z.object({ status: z.enum(APPROVAL_STATUSES).optional().describe("Absent: pending requests you may decide"), cursor }),
    output: page,
    run: async (input, ctx) => {
      const params = approvalListParams.parse(asQuery({ status: "pending", ...input }));
      const inbox = await approvalInboxPage(ctx.db, params);
      const rows = input.status ? inbox.rows : inbox.rows.filter((r) => r.makerEmail !== ctx.staff.email);
      return toPage({ rows, nextCursor: inbox.nextCursor });
    },
  }),
  actionTool({
    name: "approve_request",
    title: "Approve a request",
    description: "Approves a held request by its id; the last required approval sends it, once. The maker cannot approve their own.",
    action: approveApproval,
    output: z.looseObject({ status: z.string() }),
  }),
  actionTool({
    name: "reject_request",
    title: "Reject a request",
    description: "Rejects a held request by its id with a reason (at least 3 characters); it is closed and never sent.",
    destructive: true,
    action: rejectApproval,
    output: z.looseObject({ status: z.string() }),
  }),
  defineTool({
    name: "list_account_activities",
    title: "Account activities",
    description:
      "An account's activities (trades, cash, dividends, fees, journals), newest first, read live from the upstream: by type, " +
      "currency, symbol and day.",
    permission: "activities:read",
    readOnly: true,
    input: z.object({
      account,
      type: z.string().trim().toUpperCase().max(32).optional(),
      currency: z.string().trim().toUpperCase().length(3).optional(),
      symbol: z.string().trim().toUpperCase().max(32).optional(),
      from: day.optional(),
      to: day.optional(),
      cursor,
    }),
    output: page,
    run: (input, ctx) => listed(activityListParams, input, (filter, paging) => activityPage(broker, ctx.db.engine, filter, paging)),
  }),
  defineTool({
    name: "list_open_alerts",
    title: "Surveillance alerts",
    description: "The surveillance alert queue, newest first: open alerts by default, or those in a given status.",
    permission: "alerts:read",
    readOnly: true,
    input: z.object({ status: z.enum(ALERT_STATUSES).optional().describe("Absent: open"), cursor }),
    output: page,
    run: (input, ctx) =>
      listed(alertListParams, { status: "open", ...input }, (filter, paging) => listAlerts(ctx.db.engine, { ...filter, ...paging })),
  }),
  defineTool({
    name: "get_stream_health",
    title: "Event stream health",
    description:
      "Whether the upstream's event stream is connected and current: its state, the last event's time, events per minute and lag. " +
      "When it is down, the desk's books lag behind the upstream.",
    permission: "stream:read",
    readOnly: true,
    input: z.object({}),
    output: z.looseObject({}),
    run: async (_input, ctx) => (await streamHealth(ctx.db.engine, env().EVENTS_SILENCE_MS)) as unknown as Record<string, unknown>,
  }),
];
