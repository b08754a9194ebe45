import { expect, test, type Page } from "./fixtures";
import { fillNewAccount, freshExternal, sandboxAccountsByExternal, sandboxCall, sandboxCalls } from "./accounts-helpers";
import { describeAs, shots, storageFor } from "./helpers";
import { listingChecks } from "./listing-checks";

/** Records the server action calls a page makes (id and body), to replay them as another role or as a retry. */
function recordActions(page: Page) {
  const calls: { id: string; body: string; url: string }[] = [];
  page.on("request", (req) => {
    const id = req.headers()["next-action"];
    if (id && req.method() === "POST") calls.push({ id, body: req.postData() ?? "", url: req.url() });
  });
  return calls;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describeAs("as operations", "operations", () => {
  test("opens an account (W-8BEN, LV2) through field errors, finds it, opens it and updates its option level", async ({
    page,
    browser,
  }) => {
    const external = freshExternal("E");
    const actions = recordActions(page);
    await page.goto("/accounts");
    await page.getByRole("link", { name: "Open account" }).click();
    await expect(page.getByRole("heading", { name: "Open a virtual account" })).toBeVisible();

    await fillNewAccount(page, external, { lastName: "", options: true });
    await expect(page.getByTestId("account-number-preview")).toHaveText(`VBD${external}`);
    await page.getByLabel("Option level").selectOption("LV2");

    // A missing W-8BEN member: the shared schema stops it in the browser, on that field.
    await page.getByRole("button", { name: "Open account" }).click();
    await expect(page.getByText("Enter the last name")).toBeVisible();
    await page.getByLabel("Last name", { exact: true }).fill("Lovelace");

    // LV4 is above the master's LV3: offered disabled with the reason. Forced anyway (a stale form), the
    // upstream's 417 comes back as a field error under the option level, not a generic failure.
    const lv4 = page.getByLabel("Option level").locator("option[value=LV4]");
    await expect(lv4).toBeDisabled();
    await expect(lv4).toContainText("above the master account's LV3");
    await lv4.evaluate((o: HTMLOptionElement) => (o.disabled = false));
    await page.getByLabel("Option level").selectOption("LV4");
    await page.getByRole("button", { name: "Open account" }).click();
    await expect(page.locator("#f-option_level-error")).toContainText("exceeds the master account's level LV3");
    expect(sandboxAccountsByExternal(external)).toHaveLength(0);

    // Back to LV2, and a double click on submit: one account.
    await page.getByLabel("Option level").selectOption("LV2");
    await page.getByRole("button", { name: "Open account" }).dblclick();
    await expect(page.getByText("The account was opened.")).toBeVisible();
    await expect(page.getByTestId("overview-panel")).toContainText("LV2");
    const opened = sandboxAccountsByExternal(external);
    expect(opened).toHaveLength(1);

    // A retry of the very same request (as after a timeout) is the same account, not a second one.
    const create = actions.filter((a) => a.url.includes("/accounts/new")).at(-1)!;
    const replay = await page.request.post("/accounts/new", {
      headers: { "next-action": create.id, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
      data: create.body,
    });
    expect(await replay.text()).toContain(opened[0].account_id);
    expect(sandboxAccountsByExternal(external)).toHaveLength(1);

    // Find it in the list by its external number, and open it from there.
    await page.goto("/accounts");
    await page.getByLabel("Search accounts").fill(external);
    const row = page.getByTestId(`account-row-${external}`);
    await expect(row).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(1);
    expect(page.url()).toContain(`q=${external}`);
    await row.getByRole("link").click();
    await expect(page.getByTestId("overview-panel")).toContainText("Lovelace");

    // Update the option level: the diff is shown first, then confirmed.
    await page.getByRole("link", { name: "Edit account" }).click();
    await page.getByLabel("Option level").selectOption("LV3");
    await page.getByRole("button", { name: "Review changes" }).click();
    const diff = page.getByTestId("diff-table");
    await expect(diff.locator("tbody tr")).toHaveCount(1);
    await expect(diff).toContainText("Option level");
    await expect(diff.locator("tbody tr").first()).toContainText(/LV2\s*LV3/);
    await page.getByRole("button", { name: "Confirm update" }).click();
    await expect(page.getByText("The account was updated.")).toBeVisible();
    await expect(page.getByTestId("overview-panel")).toContainText("LV3");
    expect(sandboxAccountsByExternal(external)[0].option_level).toBe("LV3");

    // The create and the update are audited with the form's client_request_id and the upstream's request id (the
    // audit trail is an admin's and compliance's to read).
    const admin = await browser.newContext({ storageState: storageFor("admin") });
    const audit = await admin.newPage();
    for (const [action, prefix] of [
      ["accounts.create", "va_"],
      ["accounts.update", "vau_"],
    ]) {
      await audit.goto(`/audit?action=${action}&outcome=success`);
      // (the create is there twice: the replay above is audited too, with the same key)
      const row = audit
        .getByTestId("audit-row")
        .filter({ has: audit.locator(`a[href="/accounts/${opened[0].account_id}"]`) })
        .first();
      await expect(row.getByTitle("Upstream request id")).toHaveText(UUID);
      await expect(row.getByTitle("Idempotency key")).toContainText(prefix);
    }
    await admin.close();
  });

  test("the review locks the values it shows and takes the focus; leaving an edited form asks first", async ({ page }) => {
    await page.goto("/accounts?q=1000003&by=external_account_number");
    await page.getByTestId("account-row-1000003").getByRole("link").click();
    await page.getByRole("link", { name: "Edit account" }).click();
    const city = page.getByLabel("Home address: city");
    await city.fill("Reviewed City");
    await page.getByRole("button", { name: "Review changes" }).click();
    const review = page.getByRole("dialog", { name: /Confirm \d+ change/ });
    await expect(review).toBeFocused();
    await expect(city).toBeDisabled();
    await expect(page.getByLabel("Option level")).toBeDisabled();
    await page.getByRole("button", { name: "Back to the form" }).click();
    await expect(city).toBeEnabled();

    // An unsaved change: the Cancel link asks; staying keeps the entry, leaving goes.
    const asked: string[] = [];
    page.once("dialog", (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect.poll(() => asked).toEqual(["Leave this page? Your changes have not been saved."]);
    await expect(city).toHaveValue("Reviewed City");
    expect(page.url()).toContain("/edit");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByTestId("overview-panel")).toBeVisible();
    expect(page.url()).not.toContain("/edit");
  });

  test("finds accounts whatever the case of a number and the case or accents of a name", async ({ page }) => {
    await page.goto("/accounts");
    const search = page.getByLabel("Search accounts");
    await search.fill("vbd1000030");
    await expect(page).toHaveURL(/q=vbd1000030/);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.locator("tbody tr").first()).toContainText("VBD1000030");
    for (const name of ["muller", "MÜLLER"]) {
      await search.fill(name);
      await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(name)}`));
      await expect(page.locator("tbody tr").first()).toContainText("Müller");
      for (const row of await page.locator("tbody tr").all()) await expect(row).toContainText("Müller");
    }
  });

  test("the W-8BEN refuses emoji and invisible characters, a future signature date and unknown countries, and warns when it has lapsed", async ({
    page,
  }) => {
    await page.goto("/accounts/new");
    await fillNewAccount(page, freshExternal("W"));
    await page.getByLabel("First name", { exact: true }).fill("Ada😀");
    await page.getByLabel("Last name", { exact: true }).fill("Love\u202Elace");
    await page.getByLabel("Signature date").fill("2099-12-31");
    await page.getByLabel("Middle name").fill("J0");
    await page.getByLabel("Treaty country").fill("ZZ");
    await page.getByLabel("Home address: country").fill("XX");
    // Required fields are marked (and say so to assistive technology); no placeholder looks like a filled-in value.
    await expect(page.getByLabel("First name", { exact: true })).toHaveAttribute("aria-required", "true");
    await expect(page.getByLabel("Middle name")).not.toHaveAttribute("aria-required", "true");
    for (const label of ["Treaty country", "Home address: country"])
      await expect(page.getByLabel(label)).not.toHaveAttribute("placeholder");
    await page.getByRole("button", { name: "Open account" }).click();
    await expect(page.locator("#f-w8ben_info-middle_name-error")).toHaveText("Use letters, spaces, hyphens, apostrophes and periods only");
    await expect(page.locator("#f-w8ben_info-first_name-error")).toContainText("emoji");
    await expect(page.locator("#f-w8ben_info-last_name-error")).toContainText("invisible characters");
    await expect(page.locator("#f-w8ben_info-sign_date-error")).toHaveText("The signature date cannot be in the future");
    await expect(page.locator("#f-w8ben_info-treaty_country-error")).toContainText("ISO 3166");
    await expect(page.locator("#f-w8ben_info-home_address-country-error")).toContainText("ISO 3166");

    await page.getByLabel("Signature date").fill("2021-03-01");
    await expect(page.getByRole("status").filter({ hasText: "Lapsed on 2024-12-31" })).toBeVisible();
    await page.getByLabel("Signature date").fill(new Date().toISOString().slice(0, 10));
    await expect(page.getByText(/Lapsed on/)).toHaveCount(0);
  });

  test("the Columns menu closes on Escape and on a click outside; a row opens from the keyboard", async ({ page }) => {
    await page.goto("/accounts");
    await expect(page.locator("tbody tr")).toHaveCount(25);
    const menu = page.locator("details").filter({ hasText: "Columns" });
    const summary = menu.locator("summary");
    await summary.click();
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open", "");
    await expect(summary).toBeFocused();
    await summary.click();
    await expect(menu).toHaveAttribute("open", "");
    await page.getByRole("heading", { name: "Virtual accounts" }).click();
    await expect(menu).not.toHaveAttribute("open", "");

    const row = page.locator("tbody tr").nth(2);
    const href = (await row.getByRole("link").getAttribute("href"))!;
    await row.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByTestId("overview-panel")).toBeVisible();
  });

  test("a status other than ACTIVE says what it means beside the buying power", async ({ page }) => {
    await page.goto("/accounts?status=FROZEN");
    await page.locator("tbody tr").first().getByRole("link").click();
    await expect(page.getByTestId("status-consequence")).toContainText("Frozen: no trading");
    await expect(page.getByTestId("status-consequence")).toContainText("buying power shown cannot be used");
    await page.goto("/accounts?status=ACTIVE");
    await page.locator("tbody tr").first().getByRole("link").click();
    await expect(page.getByTestId("overview-panel")).toContainText("Trading permissions");
    await expect(page.getByTestId("status-consequence")).toHaveCount(0);
  });

  test("a 64-character name stays in its column in the list and in its cell on the detail page at 1280 px", async ({ page }) => {
    const external = freshExternal("L");
    const master = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "1" } }).body.data[0]
      .belong_account_id;
    const address = { country: "GB", city: "London", street_address: "1 Long Road", postal_code: "N1" };
    const first = "Maximiliana-Theodora";
    const last = "Wolfeschlegelsteinhausenbergerdorff-Vandersteen-Oppenheimer-Ross"; // 64 characters, the most the form takes
    const created = sandboxCall("POST", "/broker/accounts/virtual-accounts/create", {
      body: {
        client_request_id: `long-${external}`,
        belong_account_id: master,
        external_account_number: external,
        account_type: "CASH",
        trading_permissions: ["US_STOCK_NORMAL"],
        w8ben_info: {
          first_name: first,
          middle_name: "",
          last_name: last,
          treaty_country: "GB",
          tax_id: "GB1",
          sign_date: "2026-01-02",
          home_address: address,
          mail_address: address,
        },
      },
    });
    expect(created.status).toBe(200);
    await page.goto("/accounts");
    const row = page.getByTestId(`account-row-${external}`);
    await expect(row).toBeVisible();
    const wrap = page.locator("table").locator("..");
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expect(row.getByTitle(`${first} ${last}`)).toBeVisible();

    await row.getByRole("link").click();
    const name = page.getByTestId("w8ben").getByText(`${first} ${last}`);
    await expect(name).toBeVisible();
    // The name wraps inside its own cell: it does not run into the next one.
    const cell = name.locator("xpath=ancestor::div[1]");
    const [cellBox, nameBox] = [await cell.boundingBox(), await name.boundingBox()];
    expect(nameBox!.x + nameBox!.width).toBeLessThanOrEqual(cellBox!.x + cellBox!.width + 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });

  test("pages through the list with the cursor and keeps the state in the URL", async ({ page }) => {
    // The upstream lists newest first and takes no order: no column offers a sort that would order one page only,
    // and a sort in the URL is ignored.
    await page.goto("/accounts?size=10&sort=owner_name.asc");
    await expect(page.locator("tbody tr")).toHaveCount(10);
    await expect(page.locator("thead").getByRole("button")).toHaveCount(0);
    await expect(page.locator("thead th[aria-sort]")).toHaveCount(0);
    await page.goto("/accounts?size=10");
    await expect(page.locator("tbody tr")).toHaveCount(10);
    const first = await page.locator("tbody tr").first().textContent();
    await page.getByRole("button", { name: "Next →" }).click();
    await expect(page.getByTestId("page-info")).toContainText("Page 2");
    expect(page.url()).toContain("cursor=");
    await expect(page.locator("tbody tr").first()).not.toHaveText(first!);
    await page.getByRole("button", { name: "← Previous" }).click();
    await expect(page.getByTestId("page-info")).toContainText("Page 1");
    await expect(page.locator("tbody tr").first()).toHaveText(first!);

    // No sort is offered: the upstream lists newest first and takes no order, and sorting one page would misorder
    // the others. A sort in a hand-edited URL is ignored.
    await expect(page.locator("thead button")).toHaveCount(0);
    await expect(page.locator("thead th[aria-sort]")).toHaveCount(0);
    await page.goto("/accounts?size=10&sort=owner_name.asc");
    await expect(page.locator("tbody tr").first()).toHaveText(first!);

    // Column visibility lives in the URL too.
    await page.getByText("Columns", { exact: true }).click();
    // (the checkbox follows the URL, which updates just after the click: click, then check the outcome)
    await page.getByRole("checkbox", { name: "Commission code" }).click();
    await expect(page.getByRole("columnheader", { name: "Commission" })).toHaveCount(0);
    await expect.poll(() => page.url()).toContain("hide=commission_code");
    await page.reload();
    await expect(page.getByRole("columnheader", { name: "Commission" })).toHaveCount(0);
    await page.getByText("Columns", { exact: true }).click();

    await page.getByRole("combobox", { name: "Status" }).selectOption("CLOSED");
    await expect(page.locator("tbody tr")).toHaveCount(2);
    await expect(page.locator("tbody")).not.toContainText("ACTIVE");
    const csv = await page.request.get("/api/accounts/export?status=CLOSED");
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect((await csv.text()).trim().split("\r\n")).toHaveLength(3); // header + the two closed accounts
  });
});

test.describe("as support", () => {
  test("sees accounts without create or edit controls, and the create action refuses a direct call", async ({ browser }) => {
    // Learn the create action's id from a real submission by operations.
    const ops = await browser.newContext({ storageState: storageFor("operations") });
    const opsPage = await ops.newPage();
    const actions = recordActions(opsPage);
    await opsPage.goto("/accounts/new");
    await fillNewAccount(opsPage, freshExternal("S"));
    await opsPage.getByRole("button", { name: "Open account" }).click();
    await expect(opsPage.getByText("The account was opened.")).toBeVisible();
    const create = actions.find((a) => a.url.includes("/accounts/new"))!;

    const support = await browser.newContext({ storageState: storageFor("support") });
    const page = await support.newPage();
    await page.goto("/accounts");
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Open account" })).toHaveCount(0);
    const href = await page.locator("tbody tr").first().getByRole("link").getAttribute("href");
    await page.goto(href!);
    await expect(page.getByTestId("overview-panel")).toBeVisible();
    await expect(page.getByRole("link", { name: "Edit account" })).toHaveCount(0);
    expect((await page.request.get("/accounts/new")).status()).toBe(403);
    expect((await page.request.get(`${href}/edit`)).status()).toBe(403);

    const sneaky = freshExternal("X");
    const body = JSON.parse(create.body) as [Record<string, unknown>];
    body[0] = { ...body[0], external_account_number: sneaky, client_request_id: `va_${sneaky}` };
    const direct = await page.request.post("/accounts/new", {
      headers: { "next-action": create.id, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
      data: JSON.stringify(body),
    });
    expect(await direct.text()).toContain("FORBIDDEN");
    expect(sandboxAccountsByExternal(sneaky)).toHaveLength(0);
    await ops.close();
    await support.close();
  });
});

describeAs("as compliance", "compliance", () => {
  test("sees the W-8BEN masked, reveals it with a reason, and the reveal is in the audit trail", async ({ page }) => {
    await page.goto("/accounts?q=1000002&by=external_account_number");
    const href = await page.getByTestId("account-row-1000002").getByRole("link").getAttribute("href");
    const accountId = href!.split("/accounts/")[1];
    await page.goto(href!);
    const raw = sandboxCall("GET", "/broker/accounts/virtual-accounts/get", { query: { account_id: accountId } }).body;
    const taxId: string = raw.w8ben_info.tax_id;
    const street: string = raw.w8ben_info.home_address.street_address;

    const w8 = page.getByTestId("w8ben");
    await expect(w8.getByText("Masked")).toBeVisible();
    await expect(page.getByTestId("tax-id")).toContainText("••••");
    // The browser never received the values: not in the page, not in the route handler's answer.
    expect(await page.content()).not.toContain(taxId);
    expect(await page.content()).not.toContain(street);
    expect(await (await page.request.get(`/api/accounts/${accountId}`)).text()).not.toContain(taxId);

    await w8.getByRole("button", { name: "Reveal PII" }).click();
    await w8.getByRole("button", { name: "Reveal", exact: true }).click();
    await expect(page.getByText("State the reason in at least 10 characters")).toBeVisible();
    const reason = `KYC review ${Date.now()}`;
    await page.getByLabel(/Reason for revealing/).fill(reason);
    await w8.getByRole("button", { name: "Reveal", exact: true }).click();
    await expect(page.getByTestId("tax-id")).toHaveText(taxId);
    await expect(page.getByTestId("home-address")).toContainText(street);

    await page.goto("/audit?action=accounts.reveal_pii");
    const entry = page.getByTestId("audit-row").first();
    await expect(entry).toContainText("accounts.reveal_pii");
    await expect(entry).toContainText("compliance@brokerdesk.test");
    // The target links to the account; the entry's input opens over the page and the row keeps its height.
    await expect(entry.getByTestId("audit-target")).toHaveAttribute("href", `/accounts/${accountId}`);
    await expect(entry.getByTestId("audit-target")).toHaveAttribute("title", `account:${accountId}`);
    // Named by its account number: the desk learnt it when the account was read, with no call of its own.
    await expect(entry.getByTestId("audit-target")).toHaveText(`Account ${raw.account_number}`);
    const height = (await entry.boundingBox())!.height;
    await entry.getByRole("button", { name: "View" }).click();
    const input = page.getByRole("dialog", { name: /Input of entry/ });
    await expect(input).toBeVisible();
    await expect(input).toContainText(reason);
    expect((await entry.boundingBox())!.height).toBe(height);
    await page.keyboard.press("Escape");
    await expect(input).toBeHidden();
    // At 1280 px every column is on screen: the table does not scroll sideways.
    const wrap = page.locator("table").locator("..");
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expect(entry.getByTitle("Upstream request id")).toHaveText(UUID);
  });
});

describeAs("upstream faults", "operations", () => {
  test.afterEach(() => {
    sandboxCall("POST", "/sandbox/faults/clear");
  });

  test("a failing list call shows an error in the table with a Retry; an unknown account is a 404", async ({ page }) => {
    expect(
      sandboxCall("POST", "/sandbox/faults", {
        body: { type: "ERROR", path_pattern: "/broker/accounts/virtual-accounts/list", status: 500, count: 8 },
      }).status,
    ).toBe(200);
    await page.goto("/accounts?status=ACTIVE");
    const table = page.locator("table");
    await expect(table.getByRole("alert")).toContainText("internal error", { timeout: 20_000 });
    sandboxCall("POST", "/sandbox/faults/clear");
    await table.getByRole("button", { name: "Retry" }).click();
    await expect(page.locator("tbody tr").first()).toContainText("ACTIVE");

    await page.goto("/accounts?q=nobody-at-all&by=name");
    await expect(page.getByRole("cell", { name: "No accounts match these filters." })).toBeVisible();
    const missing = await page.goto("/accounts/NO0SUCH0ACCOUNT");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Account not found" })).toBeVisible();
    const unknownNumber = await page.goto("/accounts/VBD9999999");
    expect(unknownNumber?.status()).toBe(404);
  });

  test("an address with the account's number, as staff type or paste it, opens the account", async ({ page }) => {
    await page.goto("/accounts/vbd1000003");
    await expect(page).toHaveURL(/\/accounts\/[0-9a-f-]{16,}$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("VBD1000003");
  });

  test("a filter changed while the upstream does not answer shows the error with a Retry, not the previous rows", async ({ page }) => {
    await page.goto("/accounts");
    await expect(page.locator("tbody tr")).toHaveCount(25);
    // Unreachable: every attempt of the server's client times out (10 s each, retried), far longer than a person waits.
    expect(
      sandboxCall("POST", "/sandbox/faults", {
        body: { type: "LATENCY", path_pattern: "/broker/accounts/virtual-accounts/list", latency_ms: 30_000, count: 50 },
      }).status,
    ).toBe(200);
    await page.getByRole("combobox", { name: "Status", exact: true }).selectOption("FROZEN");
    const table = page.locator("table");
    await expect(table.getByRole("alert")).toContainText("did not answer in time", { timeout: 20_000 });
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table).not.toHaveAttribute("aria-busy", "true");

    sandboxCall("POST", "/sandbox/faults/clear");
    await table.getByRole("button", { name: "Retry" }).click();
    await expect(table.locator("tbody tr").first()).toContainText("FROZEN");
  });

  test("positions in several currencies: each price, cost and value says its currency", async ({ page }) => {
    await page.goto("/accounts?q=1000001&by=external_account_number");
    await page.getByTestId("account-row-1000001").getByRole("link").click();
    const rows = page.getByTestId("positions-panel").locator("tbody tr:not([data-testid=position-leg])");
    await expect(rows.first()).toBeVisible();
    const currencies = new Set<string>();
    for (const row of await rows.all()) {
      // Quantity, Last, Cost, Market value, P&L: the last four are money of the position's currency.
      const cells = (await row.locator("td").allTextContents()).slice(4, 8).map((t) => t.trim());
      const currency = cells[2].split(" ").at(-1)!;
      expect(currency).toMatch(/^[A-Z]{3}$/);
      for (const cell of cells) expect(cell).toMatch(new RegExp(`^-?[0-9,.]+ ${currency}$`));
      currencies.add(currency);
    }
    expect([...currencies]).toEqual(expect.arrayContaining(["HKD", "USD"]));
  });

  test("a failing balance call shows an error in the balance panel only, and Retry recovers", async ({ page }) => {
    await page.goto("/accounts?q=1000001&by=external_account_number");
    const href = await page.getByTestId("account-row-1000001").getByRole("link").getAttribute("href");
    // Enough failures for the server prefetch and the browser's own fetch, each with the client's retries.
    expect(
      sandboxCall("POST", "/sandbox/faults", {
        body: { type: "ERROR", path_pattern: "/broker/assets/balances/get", status: 503, count: 50 },
      }).status,
    ).toBe(200);

    await page.goto(href!);
    const balance = page.getByTestId("balance-panel");
    await expect(balance.getByRole("alert")).toContainText("temporarily unavailable", { timeout: 20_000 });
    await expect(page.getByTestId("overview-panel")).toContainText("Trading permissions");
    await expect(page.getByTestId("positions-panel").locator("tbody tr").first()).toBeVisible();
    await expect(page.getByTestId("activities-panel").locator("tbody tr").first()).toBeVisible();
    await expect(page.getByTestId("overview-panel").getByRole("alert")).toHaveCount(0);

    sandboxCall("POST", "/sandbox/faults/clear");
    await balance.getByRole("button", { name: "Retry" }).click();
    await expect(balance.getByRole("alert")).toHaveCount(0);
    await expect(balance).toContainText("Total assets");
    await expect(balance.locator("tbody tr").first()).toContainText("USD");
  });
});

describeAs("account page faults", "operations", () => {
  test("a failed “Load more” of the recent activities keeps the rows read, and its Retry reads that page alone", async ({ page }) => {
    await page.goto("/accounts?q=1000001&by=external_account_number");
    const href = (await page.getByTestId("account-row-1000001").getByRole("link").getAttribute("href"))!;
    const accountId = href.split("/").pop()!;
    // More than two pages of 20: a third page is still to come after the retried second.
    const made = sandboxCall("POST", "/sandbox/activities/generate", {
      body: {
        account_id: accountId,
        count: 45,
        start_time: "2025-04-01T00:00:00.000+0000",
        end_time: "2025-04-30T23:59:59.000+0000",
        activity_types: ["FEES"],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const activities = `/api/accounts/${accountId}/activities`;
    // Every read of the panel's pages, the first one's too.
    const reads: string[] = [];
    page.on("request", (req) => {
      const url = new URL(req.url());
      if (url.pathname === activities) reads.push(url.search);
    });
    let fail = true;
    await page.route(
      (url) => url.pathname === activities && url.searchParams.has("cursor"),
      (route) =>
        fail
          ? route.fulfill({ status: 503, json: { error: "UPSTREAM_UNAVAILABLE", message: "The broker is temporarily unavailable." } })
          : route.continue(),
    );

    await page.goto(href);
    const panel = page.getByTestId("activities-panel");
    const rows = panel.locator("tbody tr");
    await expect(rows).toHaveCount(20);
    const first = await rows.first().textContent();
    await panel.getByRole("button", { name: "Load more" }).click();
    const problem = panel.getByTestId("activities-more-error");
    await expect(problem).toHaveAttribute("role", "alert");
    await expect(problem).toContainText("Older activities could not be read. The broker is temporarily unavailable.");
    // The rows read stay, with "Load more" beside the problem.
    await expect(rows).toHaveCount(20);
    expect(await rows.first().textContent()).toBe(first);
    await expect(panel.getByRole("button", { name: "Load more" })).toBeVisible();
    await shots(page, "accounts", "activities-more-error");

    fail = false;
    const failed = reads.at(-1);
    expect(failed).toMatch(/^\?cursor=/);
    const before = reads.length;
    await problem.getByRole("button", { name: "Retry" }).click();
    await expect(rows).toHaveCount(40);
    await expect(problem).toHaveCount(0);
    // One read, of the page that failed: not every page again.
    expect(reads.slice(before)).toEqual([failed]);
    expect(await rows.first().textContent()).toBe(first);
  });
});

/** Upstream calls the sandbox answered since the last reset, leaving out what the event service reads on its own. */
function viewCalls(): Record<string, number> {
  const res = sandboxCall<{ data: Record<string, number> }>("GET", "/sandbox/calls");
  expect(res.status).toBe(200);
  // The event consumer reconciles orders and money movements, and sweeps activities, in the background, whatever the page does.
  return Object.fromEntries(Object.entries(res.body.data).filter(([op]) => !/\/(orders|funding|journals|activities)\//.test(op)));
}
const sum = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);

/** The activities sweep's listing calls so far: it runs a round a minute in the background, which lists the accounts too. */
const sweepCalls = () =>
  sandboxCall<{ data: Record<string, number> }>("GET", "/sandbox/calls").body.data["GET /broker/activities/cash-activities/list"] ?? 0;

/** Waits until the sweep is between rounds (no listing call for 2 s): its next round, and next account listing, is most of a minute away. */
async function betweenSweeps(): Promise<void> {
  await expect
    .poll(
      async () => {
        const before = sweepCalls();
        await new Promise((r) => setTimeout(r, 2_000));
        return sweepCalls() === before;
      },
      { timeout: 30_000, intervals: [0] },
    )
    .toBe(true);
}

/** The list viewed once (the access token and the master account in hand), the sweep between rounds, the count at 0. */
async function countFromHere(page: Page): Promise<void> {
  await page.goto("/accounts");
  await expect(page.locator("tbody tr")).toHaveCount(25);
  await betweenSweeps();
  sandboxCall("POST", "/sandbox/calls/reset");
}

describeAs("upstream economy", "operations", () => {
  test("one view of the accounts list costs one upstream call; a detail costs its calls when it is opened", async ({ page }) => {
    await countFromHere(page);
    await page.goto("/accounts");
    await expect(page.locator("tbody tr")).toHaveCount(25);
    await page.waitForLoadState("networkidle");
    // Hovering a row link (and the viewport prefetch) must not fetch the detail either.
    await page.locator("tbody tr").nth(3).getByRole("link").hover();
    await page.waitForTimeout(1_500);
    const listCalls = viewCalls();
    expect(listCalls, JSON.stringify(listCalls)).toEqual({ "GET /broker/accounts/virtual-accounts/list": 1 });

    sandboxCall("POST", "/sandbox/calls/reset");
    await page.locator("tbody tr").nth(3).getByRole("link").click();
    await expect(page.getByTestId("overview-panel")).toContainText("Trading permissions");
    await page.waitForLoadState("networkidle");
    const detailCalls = viewCalls();
    expect(detailCalls["GET /broker/accounts/virtual-accounts/get"], JSON.stringify(detailCalls)).toBeGreaterThanOrEqual(1);
    expect(sum(detailCalls)).toBeGreaterThan(1);
  });

  test("staff asking for the same accounts page at once cost the upstream one call, not one each", async ({ page }) => {
    await countFromHere(page);
    // A page size the list page did not ask for: no earlier read of it to join.
    const answers = await Promise.all(Array.from({ length: 20 }, () => page.request.get("/api/accounts?size=100")));
    expect(answers.map((a) => a.status())).toEqual(Array(20).fill(200));
    const rows = await Promise.all(answers.map(async (a) => JSON.stringify(await a.json())));
    expect(new Set(rows).size).toBe(1);
    // One call (two if an account's change notice dropped the shared read in between); one each would be 20.
    expect(viewCalls()["GET /broker/accounts/virtual-accounts/list"]).toBeLessThanOrEqual(2);
  });
});

// The listing checks: an account of this run opened at the sandbox, found by its external number; its option level
// changed at the sandbox reaches the open list by the event stream.
listingChecks("accounts", {
  async make() {
    const external = freshExternal("L");
    const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "1" } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const [made] = sandboxCalls([
      {
        method: "POST",
        path: "/broker/accounts/virtual-accounts/create",
        body: {
          client_request_id: `e2elistac${external}`,
          belong_account_id: list.body.data[0].belong_account_id,
          external_account_number: external,
          account_type: "CASH",
          trading_permissions: ["US_STOCK_NORMAL"],
          option_level: "LV1",
        },
      },
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const accountId: string = made.body.account_id ?? made.body.data?.account_id;
    return {
      filter: { label: "Search accounts", param: "q", value: external, kind: "text" },
      row: external,
      size: 10,
      paging: { kind: "pages", query: "?size=10" },
      async live(page) {
        const [r] = sandboxCalls([
          {
            method: "POST",
            path: "/broker/accounts/virtual-accounts/update",
            body: { client_request_id: `e2elistacu${external}`, account_id: accountId, option_level: "LV2" },
          },
        ]);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return page.getByTestId(`account-row-${external}`).filter({ hasText: "LV2" });
      },
      csv: { header: "Account number", each: external },
    };
  },
});
