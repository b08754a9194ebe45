import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Page } from "./fixtures";
import { Agent, fetch as undiciFetch } from "undici";
import { sandboxCall } from "./accounts-helpers";
import { disableAllRules, holdCashJournalsAbove, JOURNAL_TARGET, MASTER_NUMBER } from "./approvals-helpers";
import { createTokenOnPage, deskOrderId, storageFor } from "./helpers";
import { usStockOrder } from "../tests/helpers/orders";

/**
 * The assistant channels of the started app, as an assistant uses them: a staff member makes a token on the
 * Access tokens page, the official MCP client (Streamable HTTP) lists the tools and calls every one, the results
 * checked against the sandbox; a cash journal above a rule's threshold waits in the inbox and is sent once when a
 * second person approves it on the page; the token revoked on the page stops working at once.
 */
const SPEC_TOOLS = [
  "get_stock_noii_bars",
  "get_stock_noii_snapshot",
  "get_gainers_losers",
  "get_most_active",
  "get_futures_instruments",
  "get_futures_products",
  "get_futures_product_class",
  "get_company_profile",
  "get_analyst_rating",
  "get_analyst_target_price",
  "get_watchlists",
  "create_watchlist",
  "update_watchlist",
  "delete_watchlist",
  "get_watchlist_instruments",
  "add_watchlist_instruments",
  "remove_watchlist_instruments",
  "update_watchlist_instruments",
];
const DESK_TOOLS = [
  "find_accounts",
  "get_account_summary",
  "find_orders",
  "get_order",
  "cancel_order",
  "replace_order",
  "request_cash_journal",
  "list_movements",
  "list_my_approvals",
  "approve_request",
  "reject_request",
  "list_account_activities",
  "list_open_alerts",
  "get_stream_health",
];

const US_CORE = "2026-11-17T15:00:00Z";
const run = Date.now().toString(36);
const CREATE_JOURNAL = "POST /broker/journals/cash-journals/create";
const journalsSent = (): number => sandboxCall("GET", "/sandbox/calls").body.data[CREATE_JOURNAL] ?? 0;

function accountOf(number: string): { id: string; master: string } {
  const res = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { account_number: number, page_size: "5" } });
  expect(res.status).toBe(200);
  return { id: res.body.data[0].account_id, master: res.body.data[0].belong_account_id };
}

/**
 * The assistant's HTTP client: a connection of its own for each request. The spec's sandbox calls run a child
 * process synchronously, holding this worker's event loop for seconds on a busy machine: a kept-alive connection whose
 * idle time the desk ended meanwhile was still in the pool when the next request was written to it, which failed with
 * "other side closed" (a clean-clone CI run on a slow day).
 */
const ownConnections = new Agent({ pipelining: 0 });
const assistantFetch = ((url: string | URL, init?: RequestInit) =>
  undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: ownConnections })) as unknown as typeof fetch;

async function mcp(baseURL: string, secret: string): Promise<Client> {
  const client = new Client({ name: "e2e-assistant", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
      fetch: assistantFetch,
    }),
  );
  return client;
}

/** A tool's structured answer, failing the test with the tool's own error text when it refused. */
async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return result.structuredContent as T;
}

test("an assistant with a staff token: every tool over MCP, a held journal approved on the page, the token revoked on the page", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(360_000);
  const ops: Page = await browser.newPage({ storageState: storageFor("operations") });
  const admin: Page = await browser.newPage({ storageState: storageFor("admin") });
  const target = accountOf(JOURNAL_TARGET);
  sandboxCall("POST", "/sandbox/market/clock", { body: { now: US_CORE } });
  sandboxCall("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "100.00" } });
  try {
    const secret = await createTokenOnPage(ops, `Assistant ${run}`, "Read and write");
    const client = await mcp(baseURL!, secret);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...SPEC_TOOLS, ...DESK_TOOLS].sort());

    // The spec's market-data tools, against what the sandbox answers.
    expect((await call<{ bars: unknown[] }>(client, "get_stock_noii_bars", { symbol: "AAPL" })).bars).toBeInstanceOf(Array);
    expect(await call(client, "get_stock_noii_snapshot", { symbol: "AAPL", imbalance_action_type: "PRE_CLOSE" })).toHaveProperty(
      "symbol",
      "AAPL",
    );
    const gainers = await call<{ rows: { symbol: string; change_ratio: string }[] }>(client, "get_gainers_losers", { direction: "DESC" });
    const ranked = sandboxCall("GET", "/market-data/screeners/gainers-losers/list", {
      query: { category: "US_STOCK", rank_type: "DAY_1", sort_by: "CHANGE_RATIO", direction: "DESC" },
    });
    expect(ranked.status).toBe(200);
    const rankedRows = (Array.isArray(ranked.body) ? ranked.body : ranked.body.data) as { symbol: string }[];
    // The same ranking (rows of equal change may come in either order).
    expect(gainers.rows.map((r) => r.symbol).sort()).toEqual(rankedRows.map((r) => r.symbol).sort());
    const ratios = gainers.rows.map((r) => Number(r.change_ratio));
    expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
    expect((await call<{ rows: unknown[] }>(client, "get_most_active", { rank_type: "VOLUME" })).rows.length).toBeGreaterThan(0);
    for (const name of ["get_company_profile", "get_analyst_rating", "get_analyst_target_price"]) {
      expect((await call<{ records: unknown[] }>(client, name, { symbol: "AAPL" })).records.length).toBeGreaterThan(0);
    }

    // Futures reference data: the classes, their products, a product's contracts.
    const classes = await call<{ product_classes: { product_codes?: string[] }[] }>(client, "get_futures_product_class");
    expect(classes.product_classes.flatMap((c) => c.product_codes ?? [])).toContain("ES");
    const products = await call<{ products: { code: string }[] }>(client, "get_futures_products");
    expect(products.products.map((p) => p.code)).toContain("ES");
    const contracts = await call<{ instruments: { symbol: string }[] }>(client, "get_futures_instruments", { code: "ES" });
    expect(contracts.instruments.map((c) => c.symbol)).toContain("ESmain");

    // Watchlists: the whole life of one.
    const stock = (symbol: string, sort?: number) => ({ symbol, category: "US_STOCK", ...(sort === undefined ? {} : { sort }) });
    const { watchlist_id: wid } = await call<{ watchlist_id: string }>(client, "create_watchlist", { name: `Desk ${run}` });
    await call(client, "update_watchlist", { watchlist_id: wid, name: `Desk ${run} renamed` });
    await call(client, "add_watchlist_instruments", { watchlist_id: wid, instruments: ["AAPL", "MSFT", "TSLA"].map((x) => stock(x)) });
    await call(client, "remove_watchlist_instruments", { watchlist_id: wid, instruments: [stock("MSFT")] });
    await call(client, "update_watchlist_instruments", { watchlist_id: wid, instruments: [stock("AAPL", 1), stock("TSLA", 2)] });
    const members = await call<{ instruments: { symbol: string }[] }>(client, "get_watchlist_instruments", { watchlist_id: wid });
    expect(members.instruments.map((i) => i.symbol).sort()).toEqual(["AAPL", "TSLA"]);
    const named = async () => (await call<{ watchlists: { watchlist_id: string; name: string }[] }>(client, "get_watchlists")).watchlists;
    expect((await named()).find((w) => w.watchlist_id === wid)?.name).toBe(`Desk ${run} renamed`);
    await call(client, "delete_watchlist", { watchlist_id: wid });
    expect((await named()).map((w) => w.watchlist_id)).not.toContain(wid);

    // The desk's reads: an account by its number, its summary as the sandbox has it, its activities, movements.
    const found = await call<{ rows: { account_number: string }[] }>(client, "find_accounts", { q: JOURNAL_TARGET });
    expect(found.rows.map((r) => r.account_number)).toEqual([JOURNAL_TARGET]);
    const summary = await call<{ balance: { account_currency_assets: { currency: string; cash_balance: string }[] } }>(
      client,
      "get_account_summary",
      { account_id: target.id },
    );
    const sandboxBalance = sandboxCall("GET", "/broker/assets/balances/get", { query: { account_id: target.id } }).body;
    expect(summary.balance.account_currency_assets.map((a) => Number(a.cash_balance))).toEqual(
      sandboxBalance.account_currency_assets.map((a: { cash_balance: string }) => Number(a.cash_balance)),
    );
    // Activities are read live: the first page is the sandbox's newest activities of the account, in its order.
    const activities = await call<{ rows: { id: string; accountNumber: string }[] }>(client, "list_account_activities", {
      account: JOURNAL_TARGET,
    });
    expect(activities.rows.length).toBeGreaterThan(0);
    const upstreamActivities = sandboxCall("GET", "/broker/activities/cash-activities/list", {
      query: { account_id: target.id, page_size: String(activities.rows.length) },
    }).body.data as { id: string }[];
    expect(activities.rows.map((r) => r.id)).toEqual(upstreamActivities.map((a) => a.id));
    expect(new Set(activities.rows.map((r) => r.accountNumber))).toEqual(new Set([JOURNAL_TARGET]));
    // The stream's health as the stream page reads it (the same consumer, connected, the same last event or later).
    const health = await call<{ connected: boolean; leader?: string }>(client, "get_stream_health");
    const page = (await (await ops.request.get("/api/events/health")).json()) as { connected: boolean; leader?: string };
    expect(health).toMatchObject({ connected: page.connected, leader: page.leader });

    // Support's job: an order the customer placed in their own app, found, replaced and cancelled with a reason.
    const coid = `e2eMcp${run}`;
    const placed = sandboxCall("POST", "/broker/orders/place", {
      body: { account_id: target.id, new_orders: [usStockOrder({ client_order_id: coid, quantity: "5", limit_price: "50.00" })] },
    });
    expect(placed.status).toBe(200);
    const replacedAtSandbox = sandboxCall("POST", "/broker/orders/replace", {
      body: { account_id: target.id, modify_orders: [{ combo_type: "NORMAL", client_order_id: coid, limit_price: "50.10" }] },
    });
    expect(replacedAtSandbox.status).toBe(200);
    const orderId = await deskOrderId(ops, target.id, coid);
    const orders = await call<{ rows: { id: string }[] }>(client, "find_orders", { account: target.id, symbol: "AAPL" });
    expect(orders.rows.map((r) => r.id)).toContain(orderId);
    expect(await call(client, "get_order", { order_id: orderId })).toMatchObject({ order: { clientOrderId: coid } });
    await call(client, "replace_order", { orderId, limitPrice: "50.20", reasonCode: "CUSTOMER_REQUEST" });
    await call(client, "cancel_order", { orderId, reasonCode: "OTHER", reasonText: "customer called to cancel" });
    await expect
      .poll(
        () => sandboxCall("GET", "/broker/orders/get", { query: { account_id: target.id, client_order_id: coid } }).body.orders[0].status,
      )
      .toBe("CANCELLED");

    // Four-eyes: the journal waits in the inbox (no page reload needed) and is sent once on the approver's click.
    await holdCashJournalsAbove(admin, "10000");
    await expect(admin.getByText("Rule created.")).toBeVisible();
    const before = journalsSent();
    const journal = {
      client_request_id: `mcp${run}`,
      from_account: target.master,
      to_account: target.id,
      currency: "USD",
      amount: "25000.00",
    };
    const held = await call<{ status: string; approvalId: string }>(client, "request_cash_journal", journal);
    expect(held.status).toBe("held");
    expect(journalsSent()).toBe(before);
    const mine = await call<{ rows: { id: string }[] }>(client, "list_my_approvals");
    expect(mine.rows.map((r) => r.id)).not.toContain(held.approvalId); // the maker's own request is not theirs to decide
    await admin.goto(`/approvals/${held.approvalId}`);
    await expect(admin.getByTestId("approval-summary")).toContainText("25,000.00 USD");
    await expect(admin.getByTestId("approval-summary")).toContainText(MASTER_NUMBER);
    admin.once("dialog", (d) => void d.accept());
    await admin.getByRole("button", { name: "Approve" }).click();
    await expect(admin.getByTestId("approval-result")).toContainText("Executed");
    expect(journalsSent()).toBe(before + 1);
    // The movements read finds it, sent, on the account's number.
    const movements = await call<{ rows: { clientRequestId: string; status: string }[] }>(client, "list_movements", {
      account: JOURNAL_TARGET,
    });
    expect(movements.rows.find((m) => m.clientRequestId === journal.client_request_id)?.status).not.toBe("PENDING_APPROVAL");

    // An administrator's assistant decides two more: the approved one is sent once, the rejected one never.
    const adminClient = await mcp(baseURL!, await createTokenOnPage(admin, `Admin assistant ${run}`, "Read and write"));
    const hold = async (n: number) =>
      (
        await call<{ status: string; approvalId: string }>(client, "request_cash_journal", {
          ...journal,
          client_request_id: `mcp${run}x${n}`,
          amount: `${20000 + n}.00`,
        })
      ).approvalId;
    const [approveId, rejectId] = [await hold(1), await hold(2)];
    const waiting = await call<{ rows: { id: string }[] }>(adminClient, "list_my_approvals");
    expect(waiting.rows.map((r) => r.id)).toEqual(expect.arrayContaining([approveId, rejectId]));
    expect(await call(adminClient, "approve_request", { id: approveId })).toMatchObject({ status: "executed" });
    expect(journalsSent()).toBe(before + 2);
    expect(await call(adminClient, "reject_request", { id: rejectId, reason: "not agreed with the customer" })).toMatchObject({
      status: "rejected",
    });
    expect(journalsSent()).toBe(before + 2);
    const rejected = await call<{ rows: { id: string }[] }>(adminClient, "list_my_approvals", { status: "rejected" });
    expect(rejected.rows.map((r) => r.id)).toContain(rejectId);

    // The audit trail names the channel.
    await admin.goto(`/audit?action=movements.cash_journal`);
    await expect(admin.getByTestId("audit-channel").first()).toContainText("MCP tool");

    // Alerts are compliance's and admin's: the operator's assistant is refused, as the operator would be.
    const refused = await client.callTool({ name: "list_open_alerts", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("FORBIDDEN");
    await call(adminClient, "list_open_alerts");
    await adminClient.close();

    // Revoked on the page: the next call is refused.
    await ops.goto("/settings/tokens");
    ops.once("dialog", (d) => void d.accept());
    await ops
      .getByTestId(`token-row-${secret.slice(0, 10)}`)
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect(ops.getByTestId(`token-row-${secret.slice(0, 10)}`)).toContainText("Revoked");
    await expect(client.callTool({ name: "get_stream_health", arguments: {} })).rejects.toThrow(/UNAUTHENTICATED/);
    const raw = await assistantFetch(new URL("/api/skills", baseURL), { headers: { authorization: `Bearer ${secret}` } });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toContain("/.well-known/oauth-protected-resource/api/skills");
    await client.close();
  } finally {
    await disableAllRules(admin);
    sandboxCall("POST", "/sandbox/market/clock", { body: { now: null } });
    await admin.close();
    await ops.close();
  }
});

test("RFC 9728 discovery without a session: the resource_metadata URL a 401 names answers JSON, not a sign-in redirect", async ({
  baseURL,
}) => {
  for (const [path, init] of [
    ["/api/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
    ["/api/skills", { method: "GET" }],
  ] as const) {
    const refused = await assistantFetch(new URL(path, baseURL), init);
    expect(refused.status).toBe(401);
    const url = /resource_metadata="([^"]+)"/.exec(refused.headers.get("www-authenticate") ?? "")?.[1];
    expect(url, `${path}: ${refused.headers.get("www-authenticate")}`).toBeTruthy();
    // No cookie and no credential, as an MCP client reads it; a redirect would be the proxy's sign-in page.
    const metadata = await assistantFetch(url!, { redirect: "manual" });
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("content-type")).toContain("application/json");
    expect(metadata.headers.get("cache-control")).toContain("no-store");
    expect(await metadata.json()).toMatchObject({ resource: new URL(path, baseURL).href, bearer_methods_supported: ["header"] });
  }
});
