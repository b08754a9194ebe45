import { expect, test, type Page } from "./fixtures";
import { E2E_SWEEP_RATE, READY_MS } from "../playwright.config";
import { sandboxCall } from "./accounts-helpers";
import { JOURNAL_TARGET } from "./approvals-helpers";
import { holdResponse, shots, storageFor } from "./helpers";
import { usStockOrder } from "../tests/helpers/orders";

/**
 * Orders the desk did not place: a customer's order placed at the sandbox directly rests there and the upstream sends
 * no event for it. The open-orders sweep brings it in: within seconds on the blotter filtered by the account's number
 * (looking at an account asks for its check), and on the unfiltered blotter within one cycle of the sweep (the e2e
 * app's rate: E2E_SWEEP_RATE in playwright.config.ts).
 */
const run = Date.now().toString(36);
const US_CORE = "2026-11-17T15:00:00Z";

/** A seeded account by its number: active and funded, so a small buy order rests at the sandbox. */
function seedAccount(number: string): { id: string; number: string } {
  const res = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { account_number: number, page_size: "5" } });
  expect(res.status).toBe(200);
  const account = (res.body.data as { account_id: string; account_number: string; account_status: string }[])[0];
  expect(account.account_status).toBe("ACTIVE");
  return { id: account.account_id, number: account.account_number };
}

function placeAtSandbox(accountId: string, coid: string, limit: string) {
  const res = sandboxCall("POST", "/broker/orders/place", {
    body: { account_id: accountId, new_orders: [usStockOrder({ client_order_id: coid, quantity: "7", limit_price: limit })] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * The row of an order, shown: a row that arrives live while the page is open is announced first ("1 new order ·
 * Show"). Within `timeout` (the product's promise where a test states one; else the suite's readiness allowance: a
 * step that only needs the row must not fail because a loaded machine was slow). Missing, the failure says where the
 * order got to: the account's check line (asked, done, failed) and whether the books hold the order.
 */
async function expectRow(page: Page, coid: string, timeout = READY_MS) {
  const row = page.getByTestId(`order-row-${coid}`);
  try {
    await expect(async () => {
      const fresh = page.getByTestId("fresh-orders");
      if (await fresh.isVisible()) await page.getByRole("button", { name: "Show", exact: true }).click();
      await expect(row).toBeVisible({ timeout: 500 });
    }).toPass({ timeout, intervals: [250] });
  } catch (error) {
    const line = page.getByTestId("order-check");
    const check = (await line.count()) ? `${await line.getAttribute("data-pending")} pending: ${await line.innerText()}` : "no check line";
    const books = await page.request.get(`/api/search?q=${encodeURIComponent(coid)}`);
    throw new Error(`order ${coid} not shown within ${timeout} ms; check line: ${check}; the books' search: ${await books.text()}`, {
      cause: error,
    });
  }
  return row;
}

test.describe("orders placed outside the desk", () => {
  test.use({ storageState: storageFor("support") });
  test.beforeAll(() => {
    sandboxCall("POST", "/sandbox/market/clock", { body: { now: US_CORE } });
  });
  test.afterAll(() => {
    sandboxCall("POST", "/sandbox/market/clock", { body: { now: null } });
  });

  test("appear in the blotter filtered by the account's number, with when the account was checked", async ({ page }) => {
    const account = seedAccount("VBD1000035");
    const coid = `e2eSweepA${run}`;
    // The agent has the account open, its orders just checked; then the customer places an order in their own app
    // and the agent looks again: the look asks for a check of its own, whenever the last one was.
    await page.goto(`/orders?account=${account.number}`);
    await expect(page.getByTestId("order-check")).toHaveAttribute("data-pending", "false");
    placeAtSandbox(account.id, coid, "23.47");
    const started = Date.now();
    await page.reload();
    // The time it took is written down, not bounded: the check waits for the page's hydration and the sweep job's turn.
    const row = await expectRow(page, coid);
    test.info().annotations.push({ type: "filtered blotter", description: `${Date.now() - started} ms` });
    await expect(row).toContainText("23.47");
    // The account by its number; its id nowhere in the blotter's text.
    await expect(row).toContainText(account.number);
    expect(await page.getByRole("main").innerText()).not.toContain(account.id);
    // Every row is the account's; the line says when its open orders were read and offers a check.
    const line = page.getByTestId("order-check");
    await expect(line).toContainText(account.number);
    await expect(line).toContainText(/checked .* \(\d+ s ago\), \d+ open/);
    await expect(line).toHaveAttribute("data-pending", "false");
    // "Check now": the account is read again at once, and the line says so.
    const checkedAt = async () => (await line.locator("time").getAttribute("datetime")) ?? "";
    const before = await checkedAt();
    await page.getByRole("button", { name: "Check now" }).click();
    await expect.poll(checkedAt).not.toBe(before);
    await expect(line).toHaveAttribute("data-pending", "false");
    await shots(page, "orders-sweep", "filtered");
  });

  test("one found while the blotter's first read of changes is on its way appears once that read has come", async ({ page }) => {
    const account = seedAccount("VBD1000035");
    const coid = `e2eSweepR${run}`;
    // The blotter reads the changes since its first page as it mounts; that read is made before the customer's order
    // is found and answered after the tab heard of it (a refetch then joins the read in flight).
    const { arrived } = await holdResponse(page, "/api/orders/changes", async () => {
      placeAtSandbox(account.id, coid, "22.36");
      expect((await page.request.get(`/api/orders/check?account=${account.number}`)).ok()).toBe(true);
      await expect.poll(async () => (await page.request.get(`/api/search?q=${coid}`)).text()).toContain(coid);
    });
    await page.goto(`/orders?account=${account.number}`);
    await arrived;
    await expectRow(page, coid);
  });

  test("appear in the unfiltered blotter by the sweep alone; the account page offers the same check", async ({ page }) => {
    const account = seedAccount(JOURNAL_TARGET);
    const coid = `e2eSweepB${run}`;
    placeAtSandbox(account.id, coid, "24.58");
    const accounts = (sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "200" } }).body.data as unknown[])
      .length;
    // A cycle at the e2e app's rate, at most twice as long with busy accounts' extra turns, and the page's poll; waited
    // for twice over, as the pacer spaces the calls but a visit on a loaded machine may take longer than its turn.
    const cycleMs = Math.ceil((2 * accounts) / E2E_SWEEP_RATE) * 1000 + 5_000;
    const started = Date.now();
    await page.goto("/orders");
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId(`order-row-${coid}`)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 2 * cycleMs });
    test.info().annotations.push({ type: "unfiltered blotter", description: `${Date.now() - started} ms (cycle bound ${cycleMs} ms)` });
    // Every row names its account by number: no upstream id in the page's text.
    expect(await page.getByRole("main").innerText()).not.toMatch(/\b[0-9a-f]{32}\b/);

    await page.goto(`/accounts/${account.id}`);
    const line = page.getByTestId("order-check");
    await expect(line).toContainText(account.number);
    await expect(line).toContainText(/\d+ open/);
    await page.getByRole("main").getByRole("link", { name: "Orders", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/orders\\?account=${account.number}`));
    await expectRow(page, coid);
  });

  test("the header's search finds an account by number and by name, and an order by its client order id", async ({ page }) => {
    const account = seedAccount("VBD1000035");
    const holder = sandboxCall("GET", "/broker/accounts/virtual-accounts/get", { query: { account_id: account.id } }).body;
    const lastName = (Array.isArray(holder) ? holder[0] : (holder.data ?? holder)).w8ben_info.last_name as string;
    const coid = `e2eSweepC${run}`;
    placeAtSandbox(account.id, coid, "25.69");
    // Looking at the account brings the order into the books.
    await page.goto(`/orders?account=${account.number}`);
    await expectRow(page, coid);

    const box = page.locator("input[role=combobox][data-ready]");
    await box.fill(account.number.toLowerCase());
    const accounts = page.getByRole("group", { name: "Accounts" });
    await expect(accounts.getByRole("option").first()).toContainText(account.number);
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/accounts/${account.id}$`));

    await box.fill(lastName);
    await expect(accounts.getByRole("option", { name: new RegExp(account.number) })).toBeVisible();
    await shots(page, "orders-sweep", "header-search");
    await box.press("Escape");

    await box.fill(coid);
    const order = page.getByRole("group", { name: "Orders" }).getByRole("option");
    await expect(order).toHaveCount(1);
    await expect(order).toContainText(account.number);
    await box.press("ArrowDown");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/orders\/\d+$/);
    await expect(page.getByText(coid).first()).toBeVisible();
  });

  test("support cancels it from its blotter row with a reason; the order page says who, when and why", async ({ page }) => {
    const account = seedAccount("VBD1000035");
    const coid = `e2eSweepD${run}`;
    placeAtSandbox(account.id, coid, "22.36");
    await page.goto(`/orders?account=${account.number}`);
    const row = await expectRow(page, coid);
    await row.getByRole("button", { name: `Change order ${coid}` }).click();
    const menu = page.getByRole("menu", { name: `Order ${coid}` });
    await expect(menu.getByRole("menuitem").first()).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Cancel order…" })).toBeFocused();
    await shots(page, "orders-sweep", "row-menu");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Cancel order" });
    await expect(dialog).toContainText(account.number);
    // Escape closes it and gives the focus back to the row's "⋯", from which the keys open it again.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(row.getByRole("button", { name: `Change order ${coid}` })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu.getByRole("menuitem").first()).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(dialog).toContainText(account.number);
    await dialog.getByLabel("Reason", { exact: true }).selectOption("CUSTOMER_REQUEST");
    await dialog.getByLabel("Reason text").fill("customer called in");
    await dialog.getByRole("button", { name: "Review cancel" }).click();
    await expect(dialog.getByTestId("order-change-review")).toContainText("Working");
    await shots(page, "orders-sweep", "row-cancel-review");
    await dialog.getByRole("button", { name: "Confirm cancel" }).click();
    await expect(dialog).toBeHidden();
    // Still on the blotter: the answer in words above the grid, the row's status live.
    await expect(page).toHaveURL(new RegExp(`/orders\\?account=${account.number}`));
    await expect(page.getByTestId("row-change").filter({ hasText: "Cancelled" })).toBeVisible();
    await expect(row).toContainText("Cancelled");
    await expect(row.getByRole("button", { name: `Change order ${coid}` })).toHaveCount(0);

    await row.getByRole("link").first().click();
    const change = page.getByTestId("staff-change").first();
    await expect(change).toContainText("Cancel");
    await expect(change).toContainText("support@brokerdesk.test");
    await expect(change).toContainText("Customer request — customer called in");
    // The broker's answer in words (its code stays in the raw event).
    const answer = page.locator('[data-testid="timeline-entry"][data-scene="CANCEL_SUCCESS"]');
    await expect(answer.locator("span").first()).toHaveText("Cancelled");
    await shots(page, "orders-sweep", "order-staff-changes");
  });

  test("an account the desk does not know says so", async ({ page }) => {
    await page.goto("/orders?account=NOSUCH123");
    await expect(page.getByTestId("order-check")).toContainText("No account NOSUCH123 is known to the desk.");
    await expect(page.getByText("No orders match these filters.")).toBeVisible();
  });
});

test.describe("an order the books lack, found by its id", () => {
  test.use({ storageState: storageFor("support") });

  test("not yet swept: the header search offers the upstream, and the account's number finds it there", async ({ page }) => {
    const account = seedAccount("VBD1000034");
    const coid = `e2eLookup${run}`;
    // The sweep cannot list open orders meanwhile (as when its turn for the account is still to come); the upstream
    // sends no event for an accepted order: the books lack it.
    const fault = sandboxCall("POST", "/sandbox/faults", {
      body: { path_pattern: "/broker/orders/open-orders/list", type: "ERROR", status: 503, count: 10_000 },
    });
    expect(fault.status, JSON.stringify(fault.body)).toBe(200);
    try {
      placeAtSandbox(account.id, coid, "21.13");
      await page.goto("/orders");
      const search = page.getByRole("combobox", { name: "Desk search" });
      await expect(search).toHaveAttribute("data-ready", "true");
      await search.fill(coid);
      await expect(page.getByRole("option", { name: /Find at the upstream/ })).toBeVisible();
      await search.press("Enter");
      await expect(page).toHaveURL(new RegExp(`/orders/lookup\\?id=${coid}$`));
      await expect(page.getByLabel("Order id or client order id")).toHaveValue(coid);
      await expect(page.getByLabel("Account number")).toBeFocused();
      await shots(page, "orders-sweep", "lookup");
      // A number the upstream does not know: said, the entries kept.
      await page.getByLabel("Account number").fill("VBD9999999");
      await page.getByRole("button", { name: "Find the order" }).click();
      await expect(page.getByText("No account VBD9999999 at the upstream")).toBeVisible();
      await expect(page.getByLabel("Order id or client order id")).toHaveValue(coid);
      await page.getByLabel("Account number").fill(account.number);
      await page.getByLabel("Account number").press("Enter");
      await expect(page).toHaveURL(/\/orders\/\d+$/);
      await expect(page.getByRole("main")).toContainText(coid);
      await expect(page.getByRole("main")).toContainText("21.13");
      // The account by its number, linked; its id nowhere in the page's text.
      await expect(page.getByRole("main").getByRole("link", { name: account.number }).first()).toBeVisible();
      expect(await page.getByRole("main").innerText()).not.toContain(account.id);
      // Now in the books: the search finds it there.
      await search.fill(coid);
      await expect(page.getByRole("option", { name: new RegExp(`^${coid} BUY`) })).toBeVisible();
      await expect(page.getByRole("option", { name: /Find at the upstream/ })).toHaveCount(0);
    } finally {
      sandboxCall("POST", "/sandbox/faults/clear");
    }
  });
});

test.describe("entry points", () => {
  test.use({ storageState: storageFor("operations") });

  test("New order on the blotter, New movement on the movements list and on the account page", async ({ page }) => {
    const account = seedAccount("VBD1000035");
    await page.goto("/orders");
    await page.getByRole("main").getByRole("link", { name: "New order" }).click();
    await expect(page).toHaveURL(/\/orders\/new$/);

    await page.goto("/movements");
    await page.getByRole("main").getByRole("link", { name: "New movement" }).click();
    await expect(page).toHaveURL(/\/movements\/new$/);

    await page.goto(`/accounts/${account.id}`);
    await expect(page.getByRole("heading", { name: account.number })).toBeVisible();
    await shots(page, "orders-sweep", "account-actions");
    await page.getByRole("main").getByRole("link", { name: "New movement" }).click();
    await expect(page).toHaveURL(new RegExp(`/movements/new\\?account=${account.id}$`));
    await page.getByRole("link", { name: /Cash journal/ }).click();
    await expect(page).toHaveURL(new RegExp(`/movements/new/cash-journal\\?account=${account.id}$`));
  });
});

test.describe("entry points a role lacks", () => {
  test.use({ storageState: storageFor("support") });

  test("support sees neither New order nor New movement", async ({ page }) => {
    await page.goto("/orders");
    await expect(page.getByRole("heading", { name: "Orders", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "New order" })).toHaveCount(0);
    await page.goto(`/accounts/${seedAccount("VBD1000035").id}`);
    await expect(page.getByRole("main").getByRole("link", { name: "Orders", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "New movement" })).toHaveCount(0);
  });
});
