import { expect, test, type Page } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { storageFor } from "./helpers";
import { usStockOrder } from "../tests/helpers/orders";

/**
 * The account timeline (issue 13): a cash journal into an account and an order fill, both made at the sandbox (the
 * desk hears of them through the event stream), and a staff update of the account through the edit form. The
 * timeline lists them newest first by the time each was recorded: the fill carries the market clock's time (pinned
 * to a past US core session, as the order specs do), so it is the oldest; then the journal, then the update.
 * Support, who cannot read movements, sees the same timeline without them.
 */
const US_CORE = "2026-11-17T15:00:00Z";
const run = Date.now().toString(36);
const JOURNAL = `e2etlJ${run}`;
const ORDER = `e2etlO${run}`;
let account = "";

/** A sandbox call that must succeed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary upstream JSON, read ad hoc by the specs
function call(...args: Parameters<typeof sandboxCall>): { status: number; body: any } {
  const res = sandboxCall(...args);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

async function screenshot(page: Page, name: string) {
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const entries = (page: Page) => page.getByTestId("timeline-entry");

test.afterAll(() => {
  sandboxCall("POST", "/sandbox/market/clock", { body: { now: null } });
});

test.describe.serial("the account timeline", () => {
  test("as operations: a journal, an order fill and a staff update, in the order they were recorded", async ({ browser }) => {
    const page = await (await browser.newContext({ storageState: storageFor("operations") })).newPage();
    const listed = call("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } }).body.data as {
      account_id: string;
      account_type?: string;
      account_status?: string;
      belong_account_id: string;
    }[];
    const target = listed.find((x) => x.account_type === "MARGIN" && x.account_status === "ACTIVE");
    expect(target).toBeTruthy();
    account = target!.account_id;

    // 1. A cash journal into the account from its master account, at the sandbox.
    call("POST", "/broker/journals/cash-journals/create", {
      body: { from_account: target!.belong_account_id, to_account: account, client_request_id: JOURNAL, amount: "1000", currency: "USD" },
    });

    // 2. An order that fills at once (a marketable limit in a pinned core session), at the sandbox.
    call("POST", "/sandbox/market/clock", { body: { now: US_CORE } });
    call("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "100.00" } });
    call("POST", "/broker/orders/place", {
      body: {
        account_id: account,
        new_orders: [usStockOrder({ client_order_id: ORDER, limit_price: "101.00" })],
      },
    });
    call("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "99.00" } });
    call("POST", "/sandbox/market/clock", { body: { now: null } });

    // 3. A staff update through the edit form: another commission group (no approval rule holds it).
    await page.goto(`/accounts/${account}/edit`);
    const commission = page.getByLabel("Commission");
    const current = await commission.inputValue();
    await commission.selectOption(current === "COMMISSION_GROUP_2" ? "COMMISSION_GROUP_3" : "COMMISSION_GROUP_2");
    await page.getByRole("button", { name: "Review changes" }).click();
    await page.getByRole("button", { name: "Confirm update" }).click();
    await expect(page.getByText("The account was updated.")).toBeVisible();

    // The account page links to its timeline; the journal and the fill arrive through the event stream.
    await page.getByRole("link", { name: "Timeline", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/accounts/${account}/timeline$`));
    const journal = entries(page).filter({ has: page.locator(`a[href="/movements/CASH_JOURNAL/${JOURNAL}"]`) });
    const fill = entries(page).filter({ hasText: "Fill BUY AAPL" }).first();
    const update = entries(page).filter({ hasText: "Account updated" }).filter({ hasText: "ops@brokerdesk.test" }).first();
    await expect(async () => {
      await page.reload();
      await expect(journal).toHaveCount(1, { timeout: 1_000 });
      await expect(fill).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(update).toContainText("commission code");

    // Newest first: the update, then the journal, then the fill (the market clock's time).
    const keys = await entries(page).evaluateAll((els) => els.map((e) => e.textContent ?? ""));
    const at = (pred: (t: string) => boolean) => keys.findIndex(pred);
    const iUpdate = at((t) => t.includes("Account updated") && t.includes("ops@brokerdesk.test"));
    const iJournal = at((t) => t.includes("Cash journal") && t.includes("1,000"));
    const iFill = at((t) => t.includes("Fill BUY AAPL"));
    expect(iUpdate).toBeGreaterThanOrEqual(0);
    expect(iUpdate).toBeLessThan(iJournal);
    expect(iJournal).toBeLessThan(iFill);
    await screenshot(page, "account-timeline");

    // The kind filter: fills only, in the URL.
    await page.locator('nav[aria-label="Kinds"] a[data-kind="fill"]').click();
    await expect(page).toHaveURL(/kinds=fill$/);
    await expect(entries(page).first()).toBeVisible();
    expect(await entries(page).evaluateAll((els) => els.every((e) => e.getAttribute("data-kind") === "fill"))).toBe(true);
    await page.context().close();
  });

  test("as support: the same timeline without movements", async ({ browser }) => {
    const page = await (await browser.newContext({ storageState: storageFor("support") })).newPage();
    await page.goto(`/accounts/${account}/timeline`);
    await expect(entries(page).filter({ hasText: "Fill BUY AAPL" }).first()).toBeVisible();
    await expect(page.locator('[data-testid="timeline-entry"][data-kind="movement"]')).toHaveCount(0);
    await expect(page.locator('nav[aria-label="Kinds"] a[data-kind="movement"]')).toHaveCount(0);
    // Asking for movements in the URL changes nothing: they are not read for this role.
    await page.goto(`/accounts/${account}/timeline?kinds=movement`);
    await expect(page.getByTestId("timeline")).toContainText("Your role reads none of the kinds asked for.");
    await expect(entries(page)).toHaveCount(0);
    const api = await page.request.get(`/api/accounts/${account}/timeline?kinds=movement,fill`);
    expect(api.status()).toBe(200);
    expect(((await api.json()) as { entries: { kind: string }[] }).entries.every((e) => e.kind === "fill")).toBe(true);
    await page.context().close();
  });
});
