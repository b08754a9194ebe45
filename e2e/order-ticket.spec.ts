import { expect, test, type Page } from "./fixtures";
import { pauseMarketTimer, sandboxAccountId as accountId, sandboxCall } from "./accounts-helpers";
import { arrowToOption, clickWhileSearchHeld, cutOff, escapeTwice, pickFromCalendar, shots, storageFor } from "./helpers";

/**
 * The order ticket as operations (issue 11, item 4): orders of every kind placed through the page and checked in the
 * sandbox itself; the option level refused with its reason; previewed fees against the filled order's; a double
 * click placing one order; and the ticket closed to support and compliance.
 */
const US_CORE = "2026-11-17T15:00:00Z";
const HK_CORE = "2026-11-17T02:00:00Z";

const sandbox = sandboxCall;

const MARGIN = "VBD1000003"; // MARGIN, US + HK
const LV1 = "VBD1000010"; // CASH, US options LV1
const OPTIONS = "VBD1000014"; // MARGIN, US options (LV2, raised to LV3 below)
const FROZEN = "VBD1000012";
const CONNECT = "VBD1000011"; // MARGIN, US + HK + CN (China Connect), CNH funded

function pinClock(now: string | null) {
  expect(sandbox("POST", "/sandbox/market/clock", { body: { now } }).status).toBe(200);
}

/** The last price a test's limits are set against (the desk's pre-trade band is 10 % of it). */
function pinPrice(symbol: string, price: string, market = "US") {
  expect(sandbox("POST", "/sandbox/market/price", { body: { symbol, price, market } }).status).toBe(200);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
function sandboxGroup(account: string, clientOrderId: string): any {
  const res = sandbox("GET", "/broker/orders/get", { query: { account_id: account, client_order_id: clientOrderId } });
  expect(res.status).toBe(200);
  return res.body;
}

/** How many order groups the sandbox holds for this client_order_id (history, newest first). */
function groupsWithId(account: string, clientOrderId: string): number {
  const res = sandbox("GET", "/broker/orders/historical-orders/list", { query: { account_id: account, page_size: "100" } });
  expect(res.status).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
  return ((res.body.data ?? res.body) as any[]).filter((g) => g.client_order_id === clientOrderId).length;
}

async function openTicket(page: Page, number: string) {
  await page.goto(`/orders/new?account=${encodeURIComponent(accountId(number))}`);
  await expect(page.getByTestId("ticket-account")).toContainText(number);
}

async function stock(page: Page, symbol: string, market: "US" | "HK" | "CN" = "US") {
  const label = { US: undefined, HK: "Hong Kong", CN: "China A (Connect)" }[market];
  if (label) await page.getByRole("radiogroup", { name: "Market" }).getByText(label).click();
  await page.locator("#f-symbol").fill(symbol);
  await expect(page.getByTestId("ticket-instrument")).toBeVisible();
}

/** A limit order for `quantity` AAPL at `limit` on the account's ticket, sent for its preview. */
async function previewAaplLimit(page: Page, number: string, quantity: string, limit: string) {
  await openTicket(page, number);
  await stock(page, "AAPL");
  await page.locator("#f-quantity").fill(quantity);
  await page.locator("#f-limit_price").fill(limit);
  await page.getByRole("button", { name: "Preview" }).click();
}

async function previewAndPlace(page: Page, opts: { double?: boolean } = {}): Promise<string[]> {
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("ticket-preview")).toBeVisible();
  const place = page.getByRole("button", { name: "Place order" });
  await (opts.double ? place.dblclick() : place.click());
  const placed = page.getByTestId("ticket-placed");
  await expect(placed).toContainText("Order placed.");
  return (await placed.locator("li span.font-mono").allTextContents()).map((s) => s.trim());
}

const money = (text: string | null) => Number((text ?? "").replace(/[^0-9.-]/g, ""));

// The market timer is paused for the file, so a pinned price stays pinned: the tests' limits sit within a few percent
// of the desk's 10 % band, and the random walk moves prices whenever the market clock is in a session.
pauseMarketTimer();

test.describe("as operations", () => {
  test.use({ storageState: storageFor("operations") });
  test.afterEach(() => pinClock(null));

  test("a US limit order from the account page: previewed fees equal the filled order's, a double click places one order", async ({
    page,
  }) => {
    pinClock(US_CORE);
    pinPrice("AAPL", "200.00");
    const id = accountId(MARGIN);
    await page.goto(`/accounts/${id}`);
    await page.getByRole("link", { name: "Place order" }).click();
    await expect(page).toHaveURL(new RegExp(`/orders/new\\?account=${id}`));
    await expect(page.getByTestId("ticket-account")).toContainText(MARGIN);

    await stock(page, "aapl");
    // One price on the ticket, the live quote's: the card's heading names the instrument and its currency only.
    await expect(page.getByTestId("ticket-quote-last")).toHaveText(/^[0-9,]+\.[0-9]{2}/);
    await expect(page.getByTestId("ticket-instrument").locator("> div").first()).toHaveText(/AAPL.*USD$/);
    await expect(page.getByTestId("ticket-instrument").locator("> div").first()).not.toContainText(/[0-9]\.[0-9]/);
    await page.locator("#f-quantity").fill("10");
    await page.locator("#f-limit_price").fill("210.00");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByTestId("ticket-preview");
    await expect(preview).toBeVisible();
    const commission = money(await page.getByTestId("preview-commission").textContent());
    const feeTotal = money(await page.getByTestId("preview-fee-total").textContent());
    await expect(page.getByTestId("preview-bp-after")).toContainText("USD");

    await page.getByRole("button", { name: "Place order" }).dblclick();
    await expect(page.getByTestId("ticket-placed")).toContainText("Order placed.");
    const [clientOrderId] = (await page.getByTestId("ticket-placed").locator("li span.font-mono").allTextContents()).map((s) => s.trim());
    expect(groupsWithId(id, clientOrderId)).toBe(1);

    // marketable at 210 against ~200: filled; its commission and fees are what the preview said
    await expect.poll(() => sandboxGroup(id, clientOrderId).orders[0].status).toBe("FILLED");
    const filled = sandboxGroup(id, clientOrderId).orders[0];
    expect(Number(filled.commission.actual_commission)).toBeCloseTo(commission, 2);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
    const fees = (filled.fees ?? []).reduce((a: number, f: any) => a + Number(f.actual_value), 0);
    expect(Number(filled.commission.actual_commission) + fees).toBeCloseTo(feeTotal, 2);
  });

  test("the account picker keeps its list while the next search is on its way, and takes the click", async ({ page }) => {
    await page.goto("/orders/new");
    const field = page.locator("#f-account_id");
    const margin = page.getByRole("listbox", { name: "Matching accounts" }).getByRole("option", { name: new RegExp(MARGIN) });
    await field.fill("Emma"); // the first name of MARGIN's holder
    await expect(margin).toBeVisible();
    // The search for the account number is held at the network while the list of the name search is shown.
    await clickWhileSearchHeld(page, { field, option: margin, next: MARGIN, url: `**/api/orders/ticket/accounts?q=${MARGIN}` });
    await expect(page.getByTestId("ticket-account")).toContainText(MARGIN);
  });

  test("the account picker works from the keyboard: the arrows choose, Enter picks the number typed, the ticket is not sent", async ({
    page,
  }) => {
    await page.goto("/orders/new");
    const field = page.locator("#f-account_id");
    await expect(field).toHaveAccessibleDescription("Account number, external number or name");
    const picked = page.getByTestId("ticket-account");

    // ArrowDown twice, then Enter: the second option.
    const second = await arrowToOption(field, page.getByRole("listbox", { name: "Matching accounts" }), "Emma", 2);
    await field.press("Enter");
    await expect(picked).toContainText(second);
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0); // no field error: the ticket was not submitted

    // Typed and Enter at once: the search is still on its way (the list of "Emma" is still shown), and Enter waits
    // for its answer.
    await picked.getByRole("button", { name: "Change" }).click();
    await field.fill(LV1);
    await field.press("Enter");
    await expect(picked).toContainText(LV1);
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
    await expect(page.getByTestId("ticket-preview")).toHaveCount(0);
  });

  test("Escape closes the account list, an option active or not; a second Escape empties the box and the list stays closed", async ({
    page,
  }) => {
    await page.goto("/orders/new");
    const field = page.locator("#f-account_id");
    const list = page.getByRole("listbox", { name: "Matching accounts" });
    // An option active: Escape closes the list (it only cleared the active option, and the list stayed open).
    await arrowToOption(field, list, "Emma", 1);
    await escapeTwice(field, list, "Emma");

    // Typing opens it again; with no option active too, Escape closes it first.
    await field.pressSequentially("Emma");
    await expect(list.getByRole("option").first()).toContainText("Emma");
    await escapeTwice(field, list, "Emma");
  });

  test("an account the broker refuses to trade: the error under the picked account is read with its Change button", async ({ page }) => {
    pinClock(US_CORE);
    pinPrice("AAPL", "200.00");
    await previewAaplLimit(page, FROZEN, "1", "199.00");
    await expect(page.getByTestId("ticket-preview")).toBeVisible();
    await page.getByRole("button", { name: "Place order" }).click();
    const picked = page.getByTestId("ticket-account");
    await expect(picked.getByRole("alert")).toContainText(`${FROZEN} is FROZEN`);
    await expect(picked.getByRole("button", { name: "Change" })).toHaveAccessibleDescription(new RegExp(`${FROZEN} is FROZEN`));
  });

  test("the account picker finds an account by number; a MASTER order with take-profit and stop-loss", async ({ page }) => {
    pinPrice("AAPL", "200.00");
    await page.goto("/orders/new");
    await page.locator("#f-account_id").fill(MARGIN);
    await page.getByRole("listbox", { name: "Matching accounts" }).getByRole("option").first().click();
    await expect(page.getByTestId("ticket-account")).toContainText(MARGIN);
    await stock(page, "AAPL");
    await page.locator("#f-quantity").fill("5");
    await page.locator("#f-limit_price").fill("190.00");
    await page.locator("#f-combo").selectOption("MASTER");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("Add a take-profit or a stop-loss order (or both)")).toBeVisible();
    // The pair's error, under both checkboxes, is read with each.
    for (const box of ["Take profit (limit)", "Stop loss (stop)"])
      await expect(page.getByLabel(box)).toHaveAccessibleDescription("Add a take-profit or a stop-loss order (or both)");
    await page.getByLabel("Take profit (limit)").check();
    await page.getByLabel("Stop loss (stop)").check();
    await page.locator("#f-profit_limit_price").fill("215.00");
    await page.locator("#f-loss_stop_price").fill("182.00");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("ticket-preview")).toBeVisible();

    await page.screenshot({ path: "test-results/order-ticket-1280.png", fullPage: true });
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.screenshot({ path: "test-results/order-ticket-1920.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    const ids = await previewAndPlace(page);
    expect(ids).toHaveLength(3);
    const group = sandboxGroup(accountId(MARGIN), ids[0]);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
    expect(group.orders.map((o: any) => [o.combo_type, o.side, o.status])).toEqual([
      ["MASTER", "BUY", "SUBMITTED"],
      ["STOP_PROFIT", "SELL", "PENDING"],
      ["STOP_LOSS", "SELL", "PENDING"],
    ]);

    // The blotter's combo column shows each member's part whole at 1280 px (STOP_PROFIT was cut to "STOP_PR").
    await page.goto(`/orders?account=${accountId(MARGIN)}`);
    // Asked for by the upstream's id (as the ticket's link does), the blotter answers by the account's number.
    await expect(page).toHaveURL(new RegExp(`/orders\\?account=${MARGIN}$`));
    await expect(page.getByLabel("Account", { exact: true })).toHaveValue(MARGIN);
    const combos = page.getByTestId("blotter-combo");
    await expect(combos.filter({ hasText: /^TP$/ }).first()).toHaveAttribute("title", "Take-profit");
    await expect(combos.filter({ hasText: /^SL$/ }).first()).toHaveAttribute("title", "Stop-loss");
    await expect(combos.filter({ hasText: /^Main$/ }).first()).toBeVisible();
    expect(await cutOff(page.getByRole("cell").filter({ has: page.getByTestId("blotter-combo") }))).toEqual([]);
    // Words, not the wire's values: the filters' choices and the Type column.
    await expect(page.getByLabel("Combo", { exact: true }).locator("option")).toContainText(["Take-profit", "Stop-loss"]);
    await expect(page.getByLabel("Order type", { exact: true }).locator("option")).toContainText(["Stop limit"]);
    await expect(page.getByLabel("Time in force", { exact: true }).locator("option")).toContainText(["Good till cancelled"]);
    await expect(page.getByRole("main")).not.toContainText(/STOP_PROFIT|STOP_LOSS/);
    await shots(page, "order-ticket", "blotter-combos");
  });

  test("an OCO pair, and a GTD order with its expiry date", async ({ page }) => {
    pinPrice("AAPL", "200.00");
    await openTicket(page, MARGIN);
    await stock(page, "AAPL");
    await page.locator("#f-quantity").fill("2");
    await page.locator("#f-limit_price").fill("190.00");
    await page.locator("#f-combo").selectOption("OCO");
    await expect(page.locator("#f-combo option")).toHaveText(["Single order", "Take-profit / stop-loss", "One cancels other (OCO)"]); // no OTO/OTOCO for US
    await page.locator("#f-oco_order_type").selectOption("STOP_LOSS");
    await page.locator("#f-oco_stop_price").fill("215.00");
    const oco = await previewAndPlace(page);
    expect(oco).toHaveLength(2);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
    expect(sandboxGroup(accountId(MARGIN), oco[0]).orders.map((o: any) => [o.combo_type, o.order_type])).toEqual([
      ["OCO", "LIMIT"],
      ["OCO", "STOP_LOSS"],
    ]);

    await page.getByRole("button", { name: "New ticket" }).click();
    await stock(page, "AAPL");
    await page.locator("#f-quantity").fill("1");
    await page.locator("#f-limit_price").fill("190.00");
    await page.locator("#f-time_in_force").selectOption("GTD");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("A GTD order needs its expiry date (yyyy-mm-dd)")).toBeVisible();
    // The desk's format whatever the browser's locale (a native date input showed mm/dd/yyyy), typed or picked.
    const expiry = page.getByLabel("Expires on");
    await expect(expiry).toHaveAttribute("type", "text");
    await expect(expiry).toHaveAttribute("placeholder", "YYYY-MM-DD");
    await expiry.fill("2026-02-30");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("A GTD order needs its expiry date (yyyy-mm-dd)")).toBeVisible();
    await pickFromCalendar(expiry, "2026-12-31");
    const [gtd] = await previewAndPlace(page);
    expect(sandboxGroup(accountId(MARGIN), gtd).orders[0]).toMatchObject({ time_in_force: "GTD", expire_date: "2026-12-31" });
  });

  test("an HK odd-lot order: lots checked on the form, odd-lot limit for fewer than one lot", async ({ page }) => {
    pinClock(HK_CORE);
    pinPrice("00700", "410.00", "HK");
    await openTicket(page, MARGIN);
    await stock(page, "700", "HK");
    await expect(page.getByTestId("ticket-instrument")).toContainText("Lot 100");
    await page.locator("#f-quantity").fill("30");
    await page.locator("#f-limit_price").fill("400.00");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("Whole lots of 100 shares (or an odd-lot limit order for fewer than one lot)")).toBeVisible();
    await page.locator("#f-order_type").selectOption("ODD_LOT_LIMIT");
    const [id] = await previewAndPlace(page);
    const odd = sandboxGroup(accountId(MARGIN), id).orders[0];
    expect(odd).toMatchObject({ symbol: "00700", order_type: "ODD_LOT_LIMIT" });
    expect(Number(odd.total_quantity)).toBe(30);
  });

  test("a China A-share order: limit or auction-limit, core hours, single, whole lots; previewed in CNH and placed as market CN", async ({
    page,
  }) => {
    pinClock(HK_CORE); // 10:00 in Shanghai too: the CN morning session
    pinPrice("601318", "52.36", "CN");
    await openTicket(page, CONNECT);
    await stock(page, "601318", "CN");
    await expect(page.getByTestId("ticket-instrument")).toContainText("Lot 100");
    await expect(page.locator("#f-order_type option")).toHaveText(["Limit", "At-auction limit"]);
    await expect(page.locator("#f-trading_session option")).toHaveText(["Core hours"]);
    await expect(page.locator("#f-combo option")).toHaveText(["Single order"]);
    await expect(page.getByText("China A: single limit or auction-limit orders, no stops")).toBeVisible();
    await expect(page.getByText("Limit price (CNH)")).toBeVisible();
    await page.locator("#f-quantity").fill("150");
    await page.locator("#f-limit_price").fill("52.00");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("Whole lots of 100 shares", { exact: true })).toBeVisible();
    await page.locator("#f-quantity").fill("100");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("ticket-preview")).toContainText("CNH");
    await shots(page, "order-ticket", "china-a");
    const [id] = await previewAndPlace(page);
    const placed = sandboxGroup(accountId(CONNECT), id).orders[0];
    expect(placed).toMatchObject({ symbol: "601318", market: "CN", order_type: "LIMIT", limit_price: "52.00" });
    expect(Number(placed.total_quantity)).toBe(100);
  });

  test("an instrument page opens the ticket on its symbol; a market the ticket does not take opens it blank", async ({ page }) => {
    await page.goto("/instruments/CN/601318");
    await page.getByRole("link", { name: "New order" }).click();
    await expect(page).toHaveURL(/\/orders\/new\?market=CN&symbol=601318$/);
    const market = page.getByRole("radiogroup", { name: "Market" });
    await expect(market.getByRole("radio", { name: "China A (Connect)" })).toBeChecked();
    await expect(page.locator("#f-symbol")).toHaveValue("601318");
    await expect(page.getByTestId("ticket-instrument")).toContainText("Lot 100");
    await expect(page.getByText("Limit price (CNH)")).toBeVisible();

    await page.goto("/orders/new?market=XX&symbol=601318");
    await expect(market.getByRole("radio", { name: "US", exact: true })).toBeChecked();
    await expect(page.locator("#f-symbol")).toHaveValue("");
  });

  test("pre-trade checks: a price far from the market is placed only with its override (audited); an order beyond the buying power is not placed", async ({
    page,
    browser,
  }) => {
    pinPrice("AAPL", "200.00");
    await previewAaplLimit(page, MARGIN, "2", "150.00");
    await expect(page.getByTestId("pre-trade-PRICE_BAND")).toHaveText(
      "Price far from the market. The limit price 150.00 USD is 25 % below the last price 200 USD (the band is 10 %).",
    );
    const place = page.getByRole("button", { name: "Place order" });
    await expect(place).toBeDisabled();
    await page.screenshot({ path: "test-results/order-ticket-pre-trade-1280.png", fullPage: true });
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.screenshot({ path: "test-results/order-ticket-pre-trade-1920.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel("Place anyway: price far from the market (recorded in the audit trail)").check();
    await place.click();
    await expect(page.getByTestId("ticket-placed")).toContainText("Order placed.");
    const [id] = (await page.getByTestId("ticket-placed").locator("li span.font-mono").allTextContents()).map((s) => s.trim());
    expect(sandboxGroup(accountId(MARGIN), id).orders[0]).toMatchObject({ limit_price: expect.stringMatching(/^150(\.0+)?$/) });

    // the override is in the audit entry of the placement (its input), read as compliance does
    const compliance = await browser.newContext({ storageState: storageFor("compliance") });
    const audit = await compliance.request.get(
      `/api/audit?action=orders.place&target=${encodeURIComponent(`order:${accountId(MARGIN)}:${id}`)}`,
    );
    expect(audit.status()).toBe(200);
    const rows = ((await audit.json()) as { rows: { outcome: string; input: { overrides?: string[] } }[] }).rows;
    expect(rows.map((r) => [r.outcome, r.input.overrides])).toEqual([["success", ["PRICE_BAND"]]]);
    await compliance.close();

    // an order the account cannot pay for: the check says so, and no override is offered
    await page.getByRole("button", { name: "New ticket" }).click();
    await stock(page, "AAPL");
    await page.locator("#f-quantity").fill("900000");
    await page.locator("#f-limit_price").fill("199.00");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("pre-trade-BUYING_POWER")).toContainText(
      "Not enough buying power. The account's USD buying power would be -",
    );
    await expect(page.getByTestId("pre-trade-BUYING_POWER")).toContainText("Change the ticket to place it.");
    await expect(page.getByLabel(/^Place anyway/)).toHaveCount(0);
    await expect(place).toBeDisabled();

    // a fraction of a share the account may not trade: refused on the quantity at the preview
    await page.locator("#f-quantity").fill("1.5");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.locator("#f-quantity-error")).toHaveText("The account may not trade fractional shares: whole shares only.");
  });

  test("a two-leg option spread: refused for an LV1 account with its reason, placed for an LV3 one", async ({ page }) => {
    pinClock(US_CORE);
    const pickVertical = async () => {
      await page.getByRole("radiogroup", { name: "Instrument" }).getByText("Option").click();
      await page.locator("#ticket-underlying").fill("AAPL");
      const rows = page.getByTestId("option-chain").locator("tbody tr");
      await expect(rows).toHaveCount(5);
      await rows
        .nth(1)
        .getByRole("button", { name: /^Buy AAPL\d{6}C/ })
        .click();
      await rows
        .nth(2)
        .getByRole("button", { name: /^Sell AAPL\d{6}C/ })
        .click();
      await expect(page.getByTestId("ticket-legs")).toContainText("Vertical spread");
      await page.locator("#f-quantity").fill("1");
      await page.locator("#f-limit_price").fill("2.00");
    };

    const lv1 = accountId(LV1);
    const before = sandbox("GET", "/broker/orders/historical-orders/list", { query: { account_id: lv1 } }).body.data?.length;
    await openTicket(page, LV1);
    await pickVertical();
    await expect(page.getByTestId("option-level-problem")).toContainText("needs option level LV3; the account has LV1");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.locator("#f-legs-error")).toContainText(
      "Vertical spread (BUY CALL / SELL CALL) needs option level LV3; the account has LV1.",
    );
    // The legs are one group, named by its heading and described by its error.
    const legsGroup = page.getByRole("group", { name: /^Legs/ });
    await expect(legsGroup).toHaveAccessibleDescription(/needs option level LV3; the account has LV1/);
    await expect(page.getByRole("button", { name: "Place order" })).toBeDisabled();
    expect(sandbox("GET", "/broker/orders/historical-orders/list", { query: { account_id: lv1 } }).body.data?.length).toBe(before);

    const lv3 = accountId(OPTIONS);
    expect(
      sandbox("POST", "/broker/accounts/virtual-accounts/update", {
        body: { client_request_id: `lv3_${Date.now()}`, account_id: lv3, option_level: "LV3" },
      }).status,
    ).toBe(200);
    await openTicket(page, OPTIONS);
    await pickVertical();
    await expect(page.getByTestId("option-level-problem")).toHaveCount(0);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("ticket-preview")).toBeVisible();
    await page.screenshot({ path: "test-results/order-ticket-option-1280.png", fullPage: true });
    const [id] = await previewAndPlace(page);
    const placed = sandboxGroup(lv3, id).orders[0];
    expect(placed).toMatchObject({ instrument_type: "OPTION", option_strategy: "VERTICAL" });
    expect(placed.legs).toHaveLength(2);
  });

  test("do not exercise a held option from the account page", async ({ page }) => {
    await page.goto(`/accounts/${accountId("VBD1000002")}`);
    const exercise = page.locator("[data-testid^=exercise-]").first();
    await exercise.getByRole("button", { name: "Do not exercise" }).click();
    await exercise.getByRole("button", { name: "Confirm" }).click();
    await expect(exercise).toContainText("Marked: do not exercise.");
  });
});

test.describe("refused", () => {
  test("support and compliance get 403 on the ticket; a replayed place action is refused and places nothing", async ({ browser }) => {
    const ops = await browser.newContext({ storageState: storageFor("operations") });
    const opsPage = await ops.newPage();
    const calls: { id: string; body: string }[] = [];
    opsPage.on("request", (req) => {
      const id = req.headers()["next-action"];
      if (id && req.method() === "POST") calls.push({ id, body: req.postData() ?? "" });
    });
    await openTicket(opsPage, MARGIN);
    pinPrice("AAPL", "200.00");
    await stock(opsPage, "AAPL");
    await opsPage.locator("#f-quantity").fill("1");
    await opsPage.locator("#f-limit_price").fill("190.00");
    const [placedId] = await previewAndPlace(opsPage);
    const place = calls.filter((c) => c.body.includes(placedId)).at(-1)!; // preview, then place: the last one
    const replayId = `ord_replay${Date.now().toString(36)}`;

    for (const role of ["support", "compliance"] as const) {
      const ctx = await browser.newContext({ storageState: storageFor(role) });
      const page = await ctx.newPage();
      expect((await page.goto("/orders/new"))?.status()).toBe(403);
      expect((await page.request.get("/api/orders/ticket/instrument?market=US&symbol=AAPL")).status()).toBe(403);
      await page.goto(`/accounts/${accountId(MARGIN)}`);
      await expect(page.getByTestId("positions-panel").first()).toBeVisible();
      await expect(page.getByRole("link", { name: "Place order" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Do not exercise" })).toHaveCount(0);
      await page.goto("/instruments/CN/601318");
      await expect(page.getByTestId("quote-last")).toBeVisible();
      await expect(page.getByRole("link", { name: "New order" })).toHaveCount(0);
      const res = await page.request.post("/orders/new", {
        headers: { "next-action": place.id, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
        data: place.body.replaceAll(placedId, `${replayId}${role[0]}`),
      });
      expect(await res.text()).toContain("FORBIDDEN");
      expect(groupsWithId(accountId(MARGIN), `${replayId}${role[0]}`)).toBe(0);
      await ctx.close();
    }
    await ops.close();
  });
});
