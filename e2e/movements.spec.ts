import { readFileSync } from "node:fs";
import { expect, test, type Page } from "./fixtures";
import { sandboxCall, sandboxCalls } from "./accounts-helpers";
import { filterBarReady, openPage, shots, storageFor } from "./helpers";
import { listingChecks, refusesBackwardsRange, untilDeskHolds } from "./listing-checks";

/**
 * The movements list and detail against the e2e sandbox. Movements are made at the sandbox directly (signed calls),
 * so the desk hears of them only through the event stream: they must arrive in the open list by themselves.
 */
const run = Date.now().toString(36);
const crid = (name: string) => `e2emv${name}${run}`;
let a = "";
let b = "";
// Their account numbers: the list names accounts by number once the desk knows it (the account directory).
let na = "";
let nb = "";

/** A sandbox call that must succeed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary upstream JSON, read ad hoc by the specs
function call(...args: Parameters<typeof sandboxCall>): { status: number; body: any } {
  const res = sandboxCall(...args);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

const fund = (name: string, type: "DEPOSIT" | "WITHDRAWAL", amount: string) =>
  call("POST", "/broker/funding/instant-funding/create", {
    body: { account_id: a, type, client_request_id: crid(name), amount, currency: "USD" },
  }).body;
const journal = (name: string, from: string, to: string, amount: string) =>
  call("POST", "/broker/journals/cash-journals/create", {
    body: { from_account: from, to_account: to, client_request_id: crid(name), amount, currency: "USD" },
  }).body;

async function screenshot(page: Page, name: string) {
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.beforeAll(() => {
  const accounts = call("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } }).body.data as {
    account_id: string;
    account_number: string;
    account_status: string;
  }[];
  const active = accounts.filter((x) => x.account_status === "ACTIVE");
  [a, b] = [active[0].account_id, active[1].account_id];
  [na, nb] = [active[0].account_number, active[1].account_number];
});

test.describe.serial("as operations", () => {
  test.use({ storageState: storageFor("operations") });

  test("movements made at the sandbox arrive in the open list by the event stream; type filter, totals, CSV", async ({ page }) => {
    await openPage(page, `/movements?account=${a}`, "Movements");
    await expect(page.getByTestId("live-indicator")).toHaveText("Live");

    expect(fund("D", "DEPOSIT", "1000.00").status).toBe("COMPLETED");
    expect(fund("W", "WITHDRAWAL", "5.50").status).toBe("COMPLETED");
    expect(journal("J", a, b, "12.34").status).toBe("COMPLETED");
    const exchange = call("POST", "/broker/funding/instant-exchanges/create", {
      body: {
        account_id: a,
        client_request_id: crid("X"),
        from_amount: "10.00",
        from_currency: "USD",
        to_currency: "HKD",
        to_amount: "70.00",
      },
    }).body;
    expect(exchange.status).toBe("COMPLETED");
    // A position journal completes or fails by what the account holds: either way it is listed with its symbol.
    call("POST", "/broker/journals/position-journals/create", {
      body: {
        from_account: b,
        to_account: a,
        client_request_id: crid("P"),
        instrument_type: "EQUITY",
        market: "US",
        symbol: "AAPL",
        quantity: "1",
      },
    });
    const rejected = journal("R", b, a, "999999999.00");
    expect(rejected.status).toBe("REJECTED");

    // No reload: the live channel refetches the list as the events are recorded.
    for (const name of ["D", "W", "J", "X", "P", "R"])
      await expect(page.getByTestId(`movement-row-${crid(name)}`)).toBeVisible({ timeout: 20_000 });
    const j = page.getByTestId(`movement-row-${crid("J")}`);
    await expect(j.getByRole("cell").nth(1)).toHaveText(`Cash journal${crid("J")}`);
    await expect(j.getByRole("cell").nth(2)).toHaveText("Completed");
    await expect(j.getByRole("cell").nth(3)).toHaveText(`${na}→${nb}`); // found by its from-side
    // Each side by its number, linked to the account (a click elsewhere on the row opens the movement).
    await expect(j.getByRole("cell").nth(3).getByRole("link", { name: nb })).toHaveAttribute("href", /^\/accounts\/[0-9a-f]+$/);
    await expect(j.getByRole("cell").nth(4)).toHaveText("12.34 USD");
    await expect(j.getByRole("cell").nth(4)).toHaveCSS("text-align", "right");
    // The rejected journal is found from its to-side, with the sandbox's reason in the row (full text on hover).
    // The exchange: what it paid and, under it, what it bought.
    const x = page.getByTestId(`movement-row-${crid("X")}`);
    await expect(x.getByTestId("movement-amount")).toHaveText("10.00 USD");
    await expect(x.getByTestId("movement-to-amount")).toHaveText("→ 70.00 HKD");
    await expect(page.getByTestId(`movement-row-${crid("P")}`).getByTestId("movement-position")).toHaveText("AAPL × 1");
    const r = page.getByTestId(`movement-row-${crid("R")}`);
    await expect(r.getByRole("cell").nth(2)).toHaveText("Rejected");
    await expect(r.getByTitle(rejected.reason)).toBeVisible();

    await screenshot(page, "movements-list");

    await page.getByRole("combobox", { name: "Type" }).selectOption("DEPOSIT");
    await expect(page).toHaveURL(new RegExp(`account=${a}.*type=DEPOSIT|type=DEPOSIT.*account=${a}`));
    await expect(page.getByTestId(`movement-row-${crid("D")}`)).toBeVisible();
    await expect(page.getByTestId(`movement-row-${crid("W")}`)).toHaveCount(0);
    await expect(page.getByTestId(`movement-row-${crid("J")}`)).toHaveCount(0);

    // Totals of the whole filter, as the API sums them (the account may hold deposits of earlier runs).
    const totals = await page.request.get(`/api/movements?account=${a}&type=DEPOSIT&part=totals`).then((res) => res.json());
    const usd = totals.byType.find((t: { direction: string; currency: string }) => t.direction === "DEPOSIT" && t.currency === "USD");
    await expect(page.getByTestId("total-DEPOSIT-USD")).toContainText(`in ${usd.count}`);
    expect(usd.count).toBeGreaterThanOrEqual(1);

    await page.getByRole("combobox", { name: "Type" }).selectOption("");
    await page.getByRole("textbox", { name: "Requester" }).fill("nobody@brokerdesk.test");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No movements match these filters.")).toBeVisible();
    await page.getByRole("button", { name: "Clear" }).click();
    await page.getByRole("textbox", { name: "Account" }).fill(a);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByTestId(`movement-row-${crid("W")}`)).toBeVisible();

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^movements-\d{14}\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv.split("\r\n")[0]).toContain("Client request id");
    for (const name of ["D", "W", "J", "R"]) expect(csv).toContain(crid(name));
    // The account by id and by number; a deposit has no from or to account.
    expect(csv).toMatch(new RegExp(`Deposit,INSTANT_FUNDING,COMPLETED,${a},VBD\\w+,,,,,1000(\\.0+)?,USD`));
  });

  test("a totals bar counts the filter and sums its completed amounts by type and currency, money in and out apart", async ({ page }) => {
    await page.goto(`/movements?account=${a}&currency=USD&requester=`);
    const body = await page.request.get(`/api/movements?account=${a}&currency=USD&size=200`).then((res) => res.json());
    const totals = await page.request.get(`/api/movements?account=${a}&currency=USD&part=totals`).then((res) => res.json());
    type Row = { clientRequestId: string; kind: string; direction: string | null; status: string; amount: string | null };
    const rows = body.rows as Row[];
    expect(rows.map((x) => x.clientRequestId)).toContain(crid("W"));
    await expect(page.getByTestId("movement-totals")).toContainText(`${totals.count} movements, ${totals.completed} completed`);
    expect(totals.completed).toBe(rows.filter((x) => x.status === "COMPLETED").length);
    // every completed type on its own: a deposit and a withdrawal are never one sum
    for (const direction of ["DEPOSIT", "WITHDRAWAL"]) {
      const mine = rows.filter((x) => x.direction === direction && x.status === "COMPLETED");
      const line = totals.byType.find((t: { direction: string }) => t.direction === direction);
      if (!mine.length) {
        expect(line).toBeUndefined();
        continue;
      }
      expect(line.count).toBe(mine.length);
      const shown = Number(line.amount).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      await expect(page.getByTestId(`total-${direction}-USD`)).toHaveText(
        `${direction === "DEPOSIT" ? "Deposit" : "Withdrawal"}${shown} USDin ${mine.length}`,
      );
    }
  });

  test("totals that cannot be read say so with a Retry, and the rows stay", async ({ page }) => {
    // The page's own read of the totals (prefetched) works; the browser's read for the deposits fails.
    let fail = true;
    await page.route(
      (url) => url.pathname === "/api/movements" && url.searchParams.get("part") === "totals" && url.searchParams.get("type") === "DEPOSIT",
      (route) =>
        fail
          ? route.fulfill({ status: 500, json: { error: "INTERNAL", message: "The totals took too long. Retry in a moment." } })
          : route.continue(),
    );
    expect(fund("T", "DEPOSIT", "7.00").status).toBe("COMPLETED");
    await openPage(page, `/movements?account=${a}`, "Movements");
    await expect(page.getByTestId(`movement-row-${crid("T")}`)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("movement-totals")).toBeVisible();
    await filterBarReady(page);
    await page.getByRole("combobox", { name: "Type" }).selectOption("DEPOSIT");
    const problem = page.getByTestId("movement-totals-error");
    await expect(problem).toHaveAttribute("role", "alert");
    await expect(problem).toContainText("Totals could not be read. The totals took too long. Retry in a moment.");
    await expect(page.getByTestId("movement-totals")).toHaveCount(0);
    await expect(page.getByTestId(`movement-row-${crid("T")}`)).toBeVisible();
    await shots(page, "movements", "totals-error");

    fail = false;
    await problem.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByTestId("total-DEPOSIT-USD")).toBeVisible();
    await expect(problem).toHaveCount(0);
  });

  test("the journal's page: fields, the timeline from its events, a refresh from upstream with the raw JSON", async ({ page }) => {
    await page.goto(`/movements?account=${a}&type=CASH_JOURNAL`);
    await page
      .getByTestId(`movement-row-${crid("J")}`)
      .getByRole("link")
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/movements/CASH_JOURNAL/${crid("J")}$`));
    await expect(page.getByTestId("movement-status")).toHaveText("Completed");
    await expect(page.getByRole("region", { name: "Movement" })).toContainText("12.34 USD");
    const timeline = page.getByTestId("timeline-entry");
    await expect(timeline.last()).toHaveAttribute("data-status", "COMPLETED");
    await expect(timeline.last()).toContainText("event stream");
    await page.getByRole("button", { name: "Refresh from upstream" }).click();
    const live = page.getByTestId("upstream-live");
    await expect(live).toContainText("Completed");
    await expect(live).toContainText("the desk's records agree");
    await page.getByText("Raw upstream JSON").click();
    await expect(page.getByTestId("upstream-raw")).toContainText(crid("J"));
    await screenshot(page, "movement-detail");
  });

  test("a journal the sandbox rejected shows the sandbox's reason", async ({ page }) => {
    const got = call("GET", "/broker/journals/cash-journals/get", { query: { account_id: b, client_request_id: crid("R") } }).body;
    const reason: string = (Array.isArray(got) ? got[0] : got).reason;
    expect(reason).toMatch(/Insufficient USD cash/);
    await page.goto(`/movements/CASH_JOURNAL/${crid("R")}`);
    await expect(page.getByTestId("movement-status")).toHaveText("Rejected");
    await expect(page.getByTestId("movement-reason")).toContainText(reason);
    await expect(page.getByTestId("timeline-entry").last()).toContainText(reason);
    await screenshot(page, "movement-rejected");
  });

  test("an unknown movement is the not-found page", async ({ page }) => {
    const res = await page.goto(`/movements/CASH_JOURNAL/nope${run}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Movement not found" })).toBeVisible();
    expect((await page.goto("/movements/NOT_A_KIND/x"))?.status()).toBe(404);
  });
});

test.describe("the filter bar", () => {
  test.use({ storageState: storageFor("operations") });

  test("a backwards date range is said on its end and not applied", async ({ page }) => {
    await refusesBackwardsRange(page, `/movements?account=${a}`, { from: "From", to: "to" });
  });
});

test.describe("as support", () => {
  test.use({ storageState: storageFor("support") });

  test("the movements page and its API are refused", async ({ page }) => {
    expect((await page.goto("/movements"))?.status()).toBe(403);
    expect((await page.request.get("/api/movements")).status()).toBe(403);
    expect((await page.request.get("/api/movements/export")).status()).toBe(403);
  });
});

// The listing checks: 26 deposits of this run on one account (more than the smallest page), one more made at the
// sandbox appears in the open list.
listingChecks("movements", {
  async make({ browser }) {
    const tag = Date.now().toString(36);
    const accounts = call("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } }).body.data as {
      account_id: string;
      account_status: string;
    }[];
    const own = accounts.filter((x) => x.account_status === "ACTIVE")[7].account_id;
    const deposit = (i: number) => ({
      method: "POST" as const,
      path: "/broker/funding/instant-funding/create",
      body: { account_id: own, type: "DEPOSIT", client_request_id: `e2elistmv${tag}x${i}`, amount: `${10 + i}.00`, currency: "USD" },
    });
    for (const r of sandboxCalls(Array.from({ length: 26 }, (_, i) => deposit(i)))) expect(r.status, JSON.stringify(r.body)).toBe(200);
    await untilDeskHolds(
      browser,
      "operations",
      `/api/movements?account=${own}&size=100`,
      Array.from({ length: 26 }, (_, i) => `"e2elistmv${tag}x${i}"`),
    );
    return {
      filter: { label: "Account", param: "account", value: own, kind: "text" },
      row: `e2elistmv${tag}x25`, // the newest: on the first page whatever its size
      size: 25,
      paging: { kind: "pages", query: `?account=${own}&size=25` },
      async live(page) {
        const [r] = sandboxCalls([deposit(99)]);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return page.getByTestId(`movement-row-e2elistmv${tag}x99`);
      },
      csv: { header: "Created (UTC)", each: own },
    };
  },
});
