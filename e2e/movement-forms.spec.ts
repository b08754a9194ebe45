import { expect, test, type Page } from "./fixtures";
import { sandboxAccountId as accountId, sandboxCall } from "./accounts-helpers";
import { disableAllRules } from "./approvals-helpers";
import { accountNumberOf, arrowToOption, clickWhileSearchHeld, escapeTwice, storageFor, shots as shotsIn } from "./helpers";

/**
 * The money movement forms as operations (issue 12, part 2): a cash journal from the master account moves both
 * balances by its amount; a withdrawal above withdrawable cash is refused on its field with nothing sent; an FX
 * quote expires on screen and the form re-quotes (the e2e sandbox's quotes live 8 s); an instant exchange sends
 * the amount the quote gives; a position journal of an option by OCC symbol completes; a journal the sandbox
 * rejects shows the sandbox's reason; a retry after an outage sends the same request once.
 */

const sandbox = sandboxCall;

const MASTER_NUMBER = "FV000123";
const TARGET = "VBD1000004"; // MARGIN, ACTIVE
const WITHDRAWER = "VBD1000001"; // CASH, ACTIVE
const OPTIONS_FROM = "VBD1000002"; // MARGIN, US options, holds an option position
const OPTIONS_TO = "VBD1000003"; // MARGIN, ACTIVE
const FROZEN = "VBD1000012";

function masterId(): string {
  const res = sandbox("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "1" } });
  return res.body.data[0].belong_account_id;
}

function usdCash(accountId: string): number {
  const res = sandbox("GET", "/broker/assets/balances/get", { query: { account_id: accountId } });
  expect(res.status).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
  return Number(res.body.account_currency_assets.find((a: any) => a.currency === "USD").cash_balance);
}

const calls = (): Record<string, number> => sandbox("GET", "/sandbox/calls").body.data;

async function pickAccount(page: Page, label: string, search: string, number: string) {
  await page.getByLabel(label, { exact: true }).fill(search);
  await page
    .getByRole("listbox", { name: `Accounts for ${label.toLowerCase()}` })
    .getByRole("option", { name: new RegExp(number) })
    .click();
  await expect(
    page.getByTestId(`picked-${label === "From account" ? "from_account" : label === "To account" ? "to_account" : "account_id"}`),
  ).toContainText(number);
}

async function reviewAndSend(page: Page, sendLabel: RegExp) {
  await page.getByRole("button", { name: "Review", exact: true }).click();
  await expect(page.getByTestId("movement-review")).toBeVisible();
  await page.getByRole("button", { name: sendLabel }).click();
  await expect(page.getByTestId("movement-outcome")).toBeVisible();
}

const shots = (page: Page, name: string) => shotsIn(page, "movement-forms", name);

// The forms' own behaviour, not four-eyes: no approval rule (a fresh desk has default ones) holds these movements.
test.beforeAll(async ({ browser }) => {
  const admin = await browser.newPage({ storageState: storageFor("admin") });
  await disableAllRules(admin);
  await admin.close();
});

test.describe("as operations", () => {
  test.use({ storageState: storageFor("operations") });

  test("a cash journal of USD 5,000 from the master account completes and both balances move by the amount", async ({ page }) => {
    const master = masterId();
    const target = accountId(TARGET);
    const [masterBefore, targetBefore] = [usdCash(master), usdCash(target)];

    await page.goto("/movements/new");
    const link = page.getByRole("link", { name: /^Cash journal/ });
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/movements\/new\/cash-journal$/);

    await pickAccount(page, "From account", "master", MASTER_NUMBER);
    await expect(page.getByTestId("available-cash")).toContainText("USD");
    await pickAccount(page, "To account", TARGET, TARGET);
    await page.getByLabel("Amount", { exact: true }).fill("5000.00");
    await page.getByRole("button", { name: "Review", exact: true }).click();
    await expect(page.getByTestId("review-amount")).toHaveText("5,000.00 USD");
    await shots(page, "cash-journal-review");
    await page.getByRole("button", { name: /Send cash journal/ }).click();
    await expect(page.getByTestId("movement-status")).toHaveText(/Completed/i);
    const detail = page.getByRole("link", { name: "Open the movement" });
    await expect(detail).toHaveAttribute("href", /^\/movements\/CASH_JOURNAL\/cj_[A-Za-z0-9]+$/);

    expect(usdCash(master)).toBeCloseTo(masterBefore - 5000, 2);
    expect(usdCash(target)).toBeCloseTo(targetBefore + 5000, 2);

    // "New" starts another form with another request id.
    const firstHref = await detail.getAttribute("href");
    await page.getByRole("button", { name: "New cash journal" }).click();
    await page.getByLabel("Amount", { exact: true }).fill("1.00");
    await page.getByRole("button", { name: "Review", exact: true }).click();
    await expect(page.getByTestId("movement-review")).not.toContainText(firstHref!.split("/").pop()!);
  });

  test("an account list stays where it is while the next search is on its way, and takes the click", async ({ page }) => {
    await page.goto("/movements/new/cash-journal");
    const field = page.getByLabel("From account", { exact: true });
    const list = page.getByRole("listbox", { name: "Accounts for from account" });
    const master = list.getByRole("option", { name: new RegExp(MASTER_NUMBER) });
    await field.focus();
    await expect(master).toBeVisible();
    // The search for "master" is held at the network while the list from the empty search is still shown.
    const url = "**/api/movements/forms/accounts?*q=master*";
    await clickWhileSearchHeld(page, { field, option: master, next: "master", url }, () => shots(page, "account-search"));
    await expect(page.getByTestId("picked-from_account")).toContainText(MASTER_NUMBER);
  });

  test("the account pickers work from the keyboard: Enter picks the number typed, the arrows choose, the form is not sent", async ({
    page,
  }) => {
    await page.goto("/movements/new/cash-journal");
    const from = page.getByLabel("From account", { exact: true });
    await expect(from).toHaveAccessibleDescription("Master account, or a virtual account by number or name");
    await from.focus();
    await expect(page.getByRole("listbox", { name: "Accounts for from account" }).getByRole("option").first()).toBeVisible();
    // Typed and Enter at once, as an operator does: the search is still on its way (the list of the empty search is
    // still shown), and Enter waits for its answer.
    await from.fill(TARGET);
    await from.press("Enter");
    await expect(page.getByTestId("picked-from_account")).toContainText(TARGET);
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0); // no field error: the form was not submitted
    await expect(page.getByLabel("Amount", { exact: true })).not.toBeFocused();

    // ArrowDown twice, then Enter: the second option.
    const to = page.getByLabel("To account", { exact: true });
    const second = await arrowToOption(to, page.getByRole("listbox", { name: "Accounts for to account" }), "Emma", 2);
    await shots(page, "account-picker-keyboard");
    await to.press("Enter");
    await expect(page.getByTestId("picked-to_account")).toContainText(second);
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
    await expect(page.getByTestId("movement-review")).toHaveCount(0);
  });

  test("the arrows step over the account the other side of a journal took, offered disabled", async ({ page }) => {
    await page.goto("/movements/new/cash-journal");
    // From: the second account of the list the empty search shows.
    const from = page.getByLabel("From account", { exact: true });
    await from.focus();
    const fromOptions = page.getByRole("listbox", { name: "Accounts for from account" }).getByRole("option");
    await expect(fromOptions.nth(2)).toBeVisible();
    await from.press("ArrowDown");
    await from.press("ArrowDown");
    await expect(fromOptions.nth(1)).toHaveAttribute("aria-selected", "true");
    const taken = await accountNumberOf(fromOptions.nth(1));
    await from.press("Enter");
    await expect(page.getByTestId("picked-from_account")).toContainText(taken);

    // To: the same list, that account disabled between others (where it stands: other specs open accounts
    // meanwhile, and the newest come first); the arrows go past it both ways.
    const to = page.getByLabel("To account", { exact: true });
    await to.focus();
    const options = page.getByRole("listbox", { name: "Accounts for to account" }).getByRole("option");
    const off = options.and(page.locator('[aria-disabled="true"]'));
    await expect(off).toHaveCount(1);
    await expect(off).toContainText(taken);
    const at = await options.evaluateAll((els) => els.findIndex((el) => el.getAttribute("aria-disabled") === "true"));
    expect(at).toBeGreaterThan(0);
    await expect(options.nth(at + 1)).toBeVisible();
    const activeIs = async (i: number) => expect(to).toHaveAttribute("aria-activedescendant", (await options.nth(i).getAttribute("id"))!);
    for (let i = 0; i < at; i++) await to.press("ArrowDown");
    await activeIs(at - 1);
    await to.press("ArrowDown");
    await activeIs(at + 1);
    await to.press("ArrowUp");
    await activeIs(at - 1);
  });

  test("Escape closes the account list; a second Escape empties the box and the list stays closed", async ({ page }) => {
    await page.goto("/movements/new/cash-journal");
    const field = page.getByLabel("From account", { exact: true });
    const list = page.getByRole("listbox", { name: "Accounts for from account" });
    await field.fill("Emma");
    await expect(list.getByRole("option").first()).toContainText("Emma");
    await escapeTwice(field, list, "Emma");

    // Typing opens it again.
    await field.pressSequentially("Em");
    await expect(list).toBeVisible();
  });

  test("an error under a picked account is read with its Change button", async ({ page }) => {
    const target = accountId(TARGET);
    await page.goto(`/movements/new/cash-journal?from=${target}&to=${target}`);
    const to = page.getByTestId("picked-to_account");
    await expect(to).toContainText(TARGET);
    await page.getByLabel("Amount", { exact: true }).fill("1.00");
    await page.getByRole("button", { name: "Review", exact: true }).click();
    await expect(to.getByRole("alert")).toHaveText("Choose two different accounts");
    await expect(to.getByRole("button", { name: "Change the to account" })).toHaveAccessibleDescription("Choose two different accounts");
  });

  test("after an outage, Send again sends the same request: one journal", async ({ page }) => {
    const target = accountId(TARGET);
    await page.goto(`/movements/new/cash-journal?from=${masterId()}&to=${target}`);
    await expect(page.getByTestId("picked-from_account")).toContainText(MASTER_NUMBER);
    await expect(page.getByTestId("picked-to_account")).toContainText(TARGET);
    await page.getByLabel("Amount", { exact: true }).fill("25.00");
    await page.getByRole("button", { name: "Review", exact: true }).click();
    const crid = (await page.getByTestId("movement-review").locator("dd.font-mono").textContent())!.trim();
    expect(
      sandbox("POST", "/sandbox/faults", {
        body: { path_pattern: "/broker/journals/cash-journals/create", type: "ERROR", status: 503, count: 10 },
      }).status,
    ).toBe(200);
    await page.getByRole("button", { name: /Send cash journal/ }).click();
    await expect(page.getByRole("alert").filter({ hasText: /same request/ })).toBeVisible({ timeout: 30_000 });
    expect(sandbox("POST", "/sandbox/faults/clear", { body: {} }).status).toBe(200);
    await page.getByRole("button", { name: "Review", exact: true }).click();
    await expect(page.getByTestId("movement-review").locator("dd.font-mono")).toHaveText(crid);
    await page.getByRole("button", { name: /Send cash journal/ }).click();
    await expect(page.getByTestId("movement-status")).toHaveText(/Completed/i);
    const journal = sandbox("GET", "/broker/journals/cash-journals/get", { query: { account_id: masterId(), client_request_id: crid } });
    expect(journal.body).toMatchObject({ status: "COMPLETED", amount: "25.00" });
  });

  test("a withdrawal above withdrawable cash is refused on its field before anything is sent", async ({ page }) => {
    const id = accountId(WITHDRAWER);
    await page.goto(`/movements/new/instant-funding?account=${id}&type=WITHDRAWAL`);
    await expect(page.getByTestId("picked-account_id")).toContainText(WITHDRAWER);
    const shown = page.getByTestId("withdrawable-cash");
    await expect(shown).toContainText("USD");
    const withdrawable = Number((await shown.textContent())!.replace(/[^0-9.]/g, ""));
    sandbox("POST", "/sandbox/calls/reset", { body: {} });
    await page.getByLabel("Amount", { exact: true }).fill((withdrawable + 1).toFixed(2));
    await page.getByRole("button", { name: "Review", exact: true }).click();
    await expect(page.locator("#f-amount-error")).toContainText("More than the withdrawable cash");
    await expect(page.getByTestId("movement-review")).toHaveCount(0);
    await shots(page, "instant-funding-refused");
    expect(calls()["POST /broker/funding/instant-funding/create"]).toBeUndefined();
  });

  test("an FX quote expires on screen and the form re-quotes by itself", async ({ page }) => {
    await page.goto("/movements/new/fx-request");
    const effective = page.getByTestId("fx-quote-effective");
    await expect(effective).toContainText("UTC");
    await expect(page.getByTestId("fx-quote-countdown")).toContainText(/expires in \d+ s/);
    const first = await effective.textContent();
    await page.getByLabel("Amount to sell").fill("1000.00");
    await expect(page.getByTestId("fx-estimate")).toContainText("HKD");
    await shots(page, "fx-request");
    await expect(page.getByTestId("fx-quote-requoted")).toBeVisible({ timeout: 20_000 });
    await expect(effective).not.toHaveText(first!);
    await expect(page.getByTestId("fx-quote-countdown")).toContainText(/expires in \d+ s/);
    await reviewAndSend(page, /Send fx request/);
    await expect(page.getByTestId("movement-status")).toHaveText(/Completed/i);
    // Its page shows what was bought and at what rate, as the sandbox booked them.
    await page.getByRole("link", { name: "Open the movement" }).click();
    await expect(page).toHaveURL(/\/movements\/FX_EXCHANGE\/[^/]+$/);
    const crid = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    const booked = sandbox("GET", "/broker/funding/fx-exchanges/get", { query: { account_id: masterId(), client_request_id: crid } });
    expect(booked.body).toMatchObject({ status: "COMPLETED", to_currency: "HKD" });
    const field = (name: string) => page.getByText(name, { exact: true }).locator("xpath=following-sibling::dd[1]");
    const bought = Number(booked.body.to_amount).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    await expect(field("To amount")).toHaveText(`${bought} HKD`);
    await expect(field("FX rate")).toHaveText(`${booked.body.fx_rate} HKD per USD`);
    await shots(page, "fx-request-movement");
  });

  test("an instant exchange sends the to_amount computed from the quote", async ({ page }) => {
    const id = accountId(WITHDRAWER);
    await page.goto(`/movements/new/instant-exchange?account=${id}`);
    await expect(page.getByTestId("fx-quote-rate")).toContainText("HKD");
    const rate = (await page.getByTestId("fx-quote-rate").textContent())!.split(" ")[0];
    await page.getByLabel("Amount to sell").fill("100.00");
    const expected = (Math.floor(Number(rate) * 100 * 100) / 100).toFixed(2); // 100 × rate, rounded down to cents
    // An amount like every other: grouped, with its currency (it was a raw decimal in an input).
    await expect(page.getByLabel(/^Receive/)).toHaveText(`${expected} HKD`);
    await shots(page, "instant-exchange");
    await reviewAndSend(page, /Send instant exchange/);
    await expect(page.getByTestId("movement-status")).toHaveText(/Completed/i);
    // The upstream answers an instant exchange with its two amounts only: its page gives their ratio as the rate.
    await page.getByRole("link", { name: "Open the movement" }).click();
    await expect(page.getByText("FX rate", { exact: true }).locator("xpath=following-sibling::dd[1]")).toHaveText(
      `${(Number(expected) / 100).toFixed(6)} HKD per USD (from the amounts)`,
    );
  });

  test("a position journal of an option given in OCC format completes", async ({ page }) => {
    const [from, to] = [accountId(OPTIONS_FROM), accountId(OPTIONS_TO)];
    const positions = sandbox("GET", "/broker/assets/positions/list", { query: { account_id: from } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
    const option = (positions.body.data as any[]).find((p) => p.instrument_type === "OPTION");
    expect(option.symbol).toMatch(/^[A-Z]+\d{6}[CP]\d{8}$/);
    await page.goto(`/movements/new/position-journal?from=${from}&to=${to}`);
    await expect(page.getByLabel("Held position")).toBeEnabled();
    await page.getByLabel("Instrument", { exact: true }).selectOption("OPTION");
    await page.getByLabel("OCC symbol").fill(option.symbol.toLowerCase());
    await expect(page.getByTestId("held-quantity")).toContainText(option.quantity);
    await page.getByLabel("Quantity").fill(String(Number(option.quantity) + 1));
    await page.getByRole("button", { name: "Review", exact: true }).click();
    await expect(page.locator("#f-quantity-error")).toContainText("More than held");
    await page.getByLabel("Quantity").fill("1");
    await shots(page, "position-journal");
    await reviewAndSend(page, /Send position journal/);
    await expect(page.getByTestId("movement-status")).toHaveText(/Completed/i);
    const after = sandbox("GET", "/broker/assets/positions/list", { query: { account_id: to } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
    expect((after.body.data as any[]).find((p) => p.symbol === option.symbol)?.quantity).toBe("1");
  });

  test("a journal the sandbox rejects shows the sandbox's reason", async ({ page }) => {
    await page.goto(`/movements/new/cash-journal?from=${masterId()}&to=${accountId(FROZEN)}`);
    await expect(page.getByTestId("picked-to_account")).toContainText(FROZEN);
    await page.getByLabel("Amount", { exact: true }).fill("100.00");
    await reviewAndSend(page, /Send cash journal/);
    await expect(page.getByTestId("movement-status")).toHaveText(/Rejected/i);
    await expect(page.getByTestId("movement-reason")).toContainText(`Account ${FROZEN} is FROZEN and cannot receive funds or securities.`);
    await shots(page, "cash-journal-rejected");
  });

  test("the chooser and the empty forms", async ({ page }) => {
    await page.goto("/movements/new");
    await shots(page, "chooser");
    for (const form of ["cash-journal", "position-journal", "instant-funding", "fx-request", "instant-exchange"]) {
      await page.goto(`/movements/new/${form}`);
      await expect(page.getByRole("button", { name: "Review", exact: true })).toBeVisible();
      await shots(page, `${form}-empty`);
    }
  });
});

test.describe("as support", () => {
  test.use({ storageState: storageFor("support") });
  test("the forms are refused (403)", async ({ page }) => {
    const res = await page.goto("/movements/new/cash-journal");
    expect(res?.status()).toBe(403);
  });
});
