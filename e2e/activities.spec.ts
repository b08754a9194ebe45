import { readFileSync } from "node:fs";
import { expect, test, type Page } from "./fixtures";
import { sandboxCall, sandboxCalls } from "./accounts-helpers";
import { filterBarReady, storageFor, shots as shotsIn } from "./helpers";
import { listingChecks } from "./listing-checks";

/**
 * The activities explorer end to end: 50,000 activities written at the sandbox reach the desk's copy through a
 * requested sweep (with its progress), all accounts' DEPOSIT totals in a date range equal the sandbox's own, the
 * 50,000 export with visible progress holds 50,000 rows with a formula neutralised; one account reads live from the
 * upstream; support is refused.
 */
const BULK = 50_000;
const FORMULA = '=HYPERLINK("http://example.invalid","x")';
// The bulk lands in a past month of its own, so a date range picks out exactly it.
const BULK_FROM = "2026-02-01";
const BULK_TO = "2026-02-28";
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

const shots = (page: Page, name: string) => shotsIn(page, "activities", name);

interface Freshness {
  asOf: string | null;
  running: unknown;
}

/**
 * Has the account's history read again from the start (the bulk is back-dated, before the account's first pass),
 * which asks for a round, and waits until that account's pass has finished.
 */
async function readAgain(page: Page, accountNumber: string, accountId: string) {
  const after = Date.now();
  await page.goto(`/activities?account=${accountNumber}&source=desk`);
  await page.getByRole("button", { name: "Read this account again…" }).click();
  await page.getByRole("button", { name: "Read again" }).click();
  await expect(page.getByText(/will be read again from the start/)).toBeVisible();
  // The round's progress shows while it runs.
  await expect(page.getByText(/Sweeping: \d+/)).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(
      async () => {
        const s = (await (await page.request.get(`/api/activities/status?account=${accountId}`)).json()) as Freshness;
        // "as of" is the pass's window end, a few seconds before it started.
        return !!s.asOf && Date.parse(s.asOf) > after - 10_000;
      },
      { timeout: 200_000, intervals: [2_000] },
    )
    .toBe(true);
  // And the rest of the round (every other account) is done too.
  await expect
    .poll(async () => ((await (await page.request.get("/api/activities/status")).json()) as Freshness).running, { timeout: 120_000 })
    .toBeNull();
}

test.describe("Activities explorer", () => {
  test.describe("as compliance", () => {
    test.use({ storageState: storageFor("compliance") });

    test("a sweep fills the desk's copy; DEPOSIT totals equal the sandbox's; 50,000 rows export with progress, formulas neutralised", async ({
      page,
    }) => {
      test.setTimeout(420_000);
      const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "10" } });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      const a = list.body.data[4];
      const account = { id: a.account_id as string, number: a.account_number as string };
      const made = sandboxCall("POST", "/sandbox/activities/generate", {
        body: {
          account_id: account.id,
          count: BULK,
          start_time: `${BULK_FROM}T00:00:00.000+0000`,
          end_time: `${BULK_TO}T23:59:59.000+0000`,
          description: FORMULA,
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);

      await readAgain(page, account.number, account.id);
      await expect(page.getByTestId("activity-freshness")).toContainText("Desk's copy as of");

      // All accounts' deposits in a range: the totals equal the sandbox's own sums, currency by currency.
      await page.goto(`/activities?type=DEPOSIT&from=2026-01-01&to=${yesterday}`);
      const truth = sandboxCall("GET", "/sandbox/activities/totals", {
        query: { activity_type: "DEPOSIT", start_time: "2026-01-01T00:00:00.000+0000", end_time: `${yesterday}T23:59:59.999+0000` },
      });
      expect(truth.status, JSON.stringify(truth.body)).toBe(200);
      const sums: { currency: string; count: number; net_amount: string }[] = truth.body.data;
      expect(sums.length).toBeGreaterThan(0);
      for (const t of sums) {
        const chip = page.getByTestId(`activity-total-${t.currency}`);
        await expect(chip).toHaveAttribute("data-count", String(t.count));
        expect(Number(await chip.getAttribute("data-net"))).toBeCloseTo(Number(t.net_amount), 6);
      }
      await expect(page.getByTestId("activity-totals").locator("[data-testid^=activity-total-]")).toHaveCount(sums.length);
      await expect(page.getByTestId("activity-chart")).toHaveAttribute("data-series", "1");
      await expect(page.locator("tbody tr").first()).toContainText("Deposit");
      await shots(page, "deposits");

      // The bulk month of one account, from the desk's copy: 50,000 rows, exported with progress.
      await page.goto(`/activities?account=${account.number}&source=desk&from=${BULK_FROM}&to=${BULK_TO}`);
      // Totals and chart read all 50,000 rows of the month; in CI the page asked for them seconds after it loaded.
      await expect(page.getByTestId("activity-totals")).toContainText("50,000 activities", { timeout: 60_000 });
      await expect(page.locator("tbody tr").first()).toContainText("=HYPERLINK");
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 120_000 }),
        (async () => {
          await page.getByRole("button", { name: "Export CSV" }).click();
          await expect(page.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
          await expect(page.getByTestId("activity-export")).toContainText(/of 50,000 rows/);
        })(),
      ]);
      await expect(page.getByTestId("activity-export")).toContainText("Exported 50,000 rows");
      const text = readFileSync((await download.path())!, "utf8");
      const lines = text.split("\r\n").filter(Boolean);
      expect(lines.length).toBe(BULK + 1); // the header, then one line a row
      expect(lines[0]).toContain("Time (UTC)");
      // A cell that a spreadsheet would run as a formula starts with a quote in the file.
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://example.invalid"",""x"")"`);
      expect(lines.some((l) => /(^|,)=/.test(l))).toBe(false);
      await shots(page, "bulk-month");
    });

    test("one account reads live from the upstream, a page a call", async ({ page }) => {
      // An account of its own with three pages of deposits in the month: read live, so no sweep is needed.
      const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "10" } });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      const own: string = list.body.data[5].account_id;
      const made = sandboxCall("POST", "/sandbox/activities/generate", {
        body: {
          account_id: own,
          count: 150,
          start_time: `${BULK_FROM}T00:00:00.000+0000`,
          end_time: `${BULK_TO}T23:59:59.000+0000`,
          activity_types: ["DEPOSIT"],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      await page.goto(`/activities?account=${own}&from=${BULK_FROM}&to=${BULK_TO}&type=DEPOSIT`);
      await expect(page.getByTestId("activity-source")).toContainText("read live from the upstream");
      await expect(page.getByRole("button", { name: "the upstream (live)" })).toHaveAttribute("aria-pressed", "true");
      const rows = page.locator("tbody tr");
      await expect(rows).toHaveCount(50);
      await expect(rows.first()).toContainText("Deposit");
      // The next page is the upstream's next page.
      await page.getByRole("button", { name: "Next →" }).click();
      await expect(page).toHaveURL(/cursor=/);
      await expect(rows).toHaveCount(50);
      await page.getByRole("button", { name: "the desk's copy" }).click();
      await expect(page).toHaveURL(/source=desk/);
      await expect(page.getByTestId("activity-source")).toHaveCount(0);
    });
  });

  test.describe("bad filter values", () => {
    test.use({ storageState: storageFor("compliance") });

    test('the page hydrates with no React hydration error (its "… ago" is counted to when the status was read)', async ({ page }) => {
      const errors: string[] = [];
      page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
      page.on("pageerror", (e) => errors.push(String(e)));
      await expect
        .poll(async () => ((await (await page.request.get("/api/activities/status")).json()) as Freshness).asOf, { timeout: 120_000 })
        .not.toBeNull();
      for (let i = 0; i < 3; i++) {
        await page.goto("/activities");
        await expect(page.getByTestId("activity-freshness")).toContainText(/ago\)/);
        await filterBarReady(page);
      }
      // Give a late error a moment to arrive; then none may name hydration (#418: text differed, #423/#425 likewise).
      await page.waitForTimeout(1_000);
      expect(errors.filter((e) => /hydrat|Minified React error #(418|423|425)\b/i.test(e))).toEqual([]);
    });

    test("an amount that is not one and a backwards date range are said on their fields; the filter is not applied", async ({ page }) => {
      await page.goto("/activities?source=desk&type=DEPOSIT");
      const bar = await filterBarReady(page);
      await bar.getByLabel("Amount at least").fill("12,5x");
      await bar.getByRole("button", { name: "Filter" }).click();
      await expect(bar.getByLabel("Amount at least")).toHaveAttribute("aria-invalid", "true");
      await expect(bar.getByRole("alert")).toHaveText("Enter an amount such as 1000.50");
      await expect(page).toHaveURL(/\/activities\?source=desk&type=DEPOSIT$/);

      await bar.getByLabel("Amount at least").fill("100");
      await bar.getByLabel("From").fill("2026-10-31");
      await bar.getByLabel("to", { exact: true }).fill("2026-10-01");
      await bar.getByRole("button", { name: "Filter" }).click();
      await expect(bar.getByRole("alert")).toHaveText("The end date is before the start date");
      await expect(page).not.toHaveURL(/min=100/);
      // At 1280 px the range's ends stay on one line, and the problem under "to" moves neither its neighbours nor Filter.
      await page.setViewportSize({ width: 1280, height: 900 });
      const top = async (name: string) => (await bar.getByLabel(name, { exact: true }).boundingBox())!.y;
      expect(await top("to")).toBe(await top("From"));
      expect(await top("at most")).toBe(await top("Amount at least"));
      const filter = (await bar.getByRole("button", { name: "Filter" }).boundingBox())!;
      const atMost = (await bar.getByLabel("at most", { exact: true }).boundingBox())!;
      expect(filter.y + filter.height).toBe(atMost.y + atMost.height);
      await shots(page, "filter-problem");

      await bar.getByLabel("to", { exact: true }).fill("2026-11-30");
      await bar.getByRole("button", { name: "Filter" }).click();
      await expect(page).toHaveURL(/to=2026-11-30/);
      await expect(page).toHaveURL(/min=100/);
      await expect(bar.getByRole("alert")).toHaveCount(0);
    });
  });

  test.describe("failures", () => {
    test.use({ storageState: storageFor("compliance") });

    test("totals that cannot be read say so with a Retry, and the rows stay", async ({ page }) => {
      // An account of its own with a few fees in a past month, read live from the upstream (no sweep needed).
      const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "10" } });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      const own: string = list.body.data[6].account_id;
      const made = sandboxCall("POST", "/sandbox/activities/generate", {
        body: {
          account_id: own,
          count: 5,
          start_time: "2025-05-01T00:00:00.000+0000",
          end_time: "2025-05-31T23:59:59.000+0000",
          activity_types: ["FEES"],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      let fail = true;
      await page.route(
        (url) => url.pathname === "/api/activities" && url.searchParams.get("part") === "summary",
        (route) =>
          fail
            ? route.fulfill({ status: 500, json: { error: "INTERNAL", message: "The totals took too long. Retry in a moment." } })
            : route.continue(),
      );
      await page.goto(`/activities?account=${own}&from=2025-05-01&to=2025-05-31`);
      await expect(page.locator("[data-testid^=activity-row-]")).toHaveCount(5);
      const problem = page.getByTestId("activity-totals-error");
      await expect(problem).toHaveAttribute("role", "alert");
      await expect(problem).toContainText("Totals could not be read. The totals took too long. Retry in a moment.");
      await expect(page.getByLabel("Loading totals")).toHaveCount(0);
      await shots(page, "totals-error");

      fail = false;
      await problem.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByTestId("activity-totals")).toBeVisible();
      await expect(problem).toHaveCount(0);
      await expect(page.locator("[data-testid^=activity-row-]")).toHaveCount(5);
    });

    test("an export the server refuses says the server's own message", async ({ page }) => {
      await page.route(
        (url) => url.pathname === "/api/activities/export",
        (route) => route.fulfill({ status: 403, json: { error: "FORBIDDEN", message: "You do not have permission to do this." } }),
      );
      await page.goto("/activities?source=desk");
      await filterBarReady(page);
      await page.getByRole("button", { name: "Export CSV" }).click();
      await expect(page.getByTestId("activity-export").getByRole("alert")).toHaveText("You do not have permission to do this.");
      await shots(page, "export-refused");
    });
  });

  test.describe("as support", () => {
    test.use({ storageState: storageFor("support") });

    test("the explorer and its API are refused", async ({ page }) => {
      expect((await page.goto("/activities"))?.status()).toBe(403);
      await expect(page.getByText("You do not have access to this page")).toBeVisible();
      expect((await page.request.get("/api/activities")).status()).toBe(403);
      expect((await page.request.get("/api/activities/export")).status()).toBe(403);
      expect((await page.request.get("/api/activities/status")).status()).toBe(403);
      await expect(page.getByRole("link", { name: "Activities" })).toHaveCount(0);
    });
  });
});

// The listing checks: an account of its own with 60 deposits in a month (read live from the upstream: two pages of
// 50); in the desk's copy, a sweep asked for in another browser offers the newer rows without a reload.
listingChecks("activities", {
  rows: (page) => page.locator("[data-testid^=activity-row-]"),
  async make() {
    const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "20" } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const own: string = list.body.data[9].account_id;
    const [made] = sandboxCalls([
      {
        method: "POST",
        path: "/sandbox/activities/generate",
        body: {
          account_id: own,
          count: 60,
          start_time: "2026-03-01T00:00:00.000+0000",
          end_time: "2026-03-31T23:59:59.000+0000",
          activity_types: ["DEPOSIT"],
        },
      },
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return {
      filter: { label: "Account", param: "account", value: own, kind: "text" },
      row: "Deposit",
      size: 100,
      paging: { kind: "pages", query: `?account=${own}&size=50`, size: 50 },
      liveQuery: `?account=${own}&source=desk`,
      liveTimeout: 150_000,
      async live(page) {
        const other = await page.context().newPage();
        await other.goto(`/activities?account=${own}&source=desk`);
        const sweep = other.getByRole("button", { name: "Sweep now" });
        await expect(sweep.or(other.getByRole("button", { name: "Sweep requested" }))).toBeVisible({ timeout: 20_000 });
        if ((await sweep.isVisible()) && (await sweep.isEnabled())) {
          await sweep.click();
          // The request is a server action on its way: closing the page before its answer can cancel it.
          await expect(other.getByText("Sweep requested: the event service starts it within seconds.")).toBeVisible();
        }
        await other.close();
        return page.getByTestId("activity-refresh");
      },
    };
  },
});
