import { readFileSync } from "node:fs";
import { expect, test, type Browser, type Locator, type Page } from "./fixtures";
import { filterBarReady, shots, storageFor, type DemoRole } from "./helpers";

/**
 * The one set of checks every listing passes (URL state, paging, live update, CSV where offered), run by each
 * listing's spec with a small declaration. Each declaration makes its own data in `make` (run once before the
 * checks, in a fresh browser context of the listing's role), so a spec needs no other spec's state or order.
 */
export interface ListingCase {
  /** A filter the bar offers, and a text a row matching it shows. */
  filter?: { label: string; param: string; value: string; kind: "text" | "select" };
  /** A text one of the rows (under the filter, when there is one) shows. */
  row: string;
  /** A page size other than the default, to be kept in the URL. */
  size: number;
  /**
   * Paging: "pages" (cursor pages: Next, Previous, page numbers; `pagingQuery` narrows the list to one with more
   * rows than its page size: `paging.size`, else `size`), "scroll" (the next pages load as the reader scrolls to the end;
   * `paging.rows` is how many rows the query holds, in pages of `size`).
   */
  paging: { kind: "pages" | "scroll"; query: string; size?: number; rows?: number };
  /** Makes a change elsewhere (the sandbox, another person's browser) and returns what must appear without reload. */
  live: (page: Page) => Promise<Locator>;
  /** The live check's page (default: the listing under the filter). */
  liveQuery?: string;
  /** How long the change may take to appear (default 30 s; a sweep round takes longer). */
  liveTimeout?: number;
  /** The CSV export, where the listing offers one: a header cell of its first line, and a text every row holds. */
  csv?: { header: string; each?: string };
}

/** The listings: each one's page and the role it is read as, by its page's spec (`listingChecks`) and by listings.spec.ts. */
export const LISTINGS = {
  accounts: { path: "/accounts", role: "operations" },
  orders: { path: "/orders", role: "operations" },
  movements: { path: "/movements", role: "operations" },
  approvals: { path: "/approvals", role: "operations" },
  activities: { path: "/activities", role: "compliance" },
  alerts: { path: "/alerts", role: "compliance" },
  audit: { path: "/audit", role: "compliance" },
  staff: { path: "/admin/staff", role: "admin" },
} as const satisfies Record<string, { path: string; role: DemoRole }>;

export interface Listing {
  /** The listing's rows (default: the table body's rows). */
  rows?: (page: Page) => Locator;
  /**
   * What names a row across reads (default: its whole text). A listing whose rows show times relative to the read
   * (an age in minutes) names them by something that stays, or a minute passing between two reads fails the check.
   */
  rowKey?: (row: Locator) => Promise<string | null>;
  make: (ctx: { browser: Browser }) => Promise<ListingCase>;
  /** Puts back what `make` changed for everyone (an approval rule), after the checks. */
  cleanup?: (ctx: { browser: Browser }) => Promise<void>;
}

const tableRows = (page: Page) => page.locator("main tbody tr");

/**
 * Returns once the desk's own route `url`, read as `role`, answers with every one of `texts`: what a listing's `make`
 * made at the sandbox has come through the event path, so the checks that follow are the listing's and not a wait on
 * that path (whose latency the live check and each domain's spec assert).
 */
export async function untilDeskHolds(browser: Browser, role: DemoRole, url: string, texts: string[]) {
  const reader = await browser.newContext({ storageState: storageFor(role) });
  try {
    await expect
      .poll(
        async () => {
          const body = await (await reader.request.get(url)).text();
          return texts.filter((t) => !body.includes(t));
        },
        { message: `what ${url} does not hold yet`, timeout: 120_000 },
      )
      .toEqual([]);
  } finally {
    await reader.close();
  }
}

/** The live channel is open (the header's mark), so a change notice reaches the page. */
async function live(page: Page) {
  await expect(page.getByTestId("live-indicator")).toHaveText("Live");
}

async function setFilter(page: Page, filter: NonNullable<ListingCase["filter"]>) {
  // Typed once the bar is hydrated: text typed into the server's markup before that is not the bar's state.
  await filterBarReady(page);
  const control = page.locator("main").getByRole("search").getByLabel(filter.label, { exact: true });
  if (filter.kind === "select") await control.selectOption(filter.value);
  else {
    await control.fill(filter.value);
    await control.press("Enter");
  }
}

/**
 * A listing's "From … to" range typed backwards (`path` open, its rows shown): said under the range's end, which is
 * marked, and not applied (the address keeps its query: no "no rows match" for a range that cannot match).
 */
export async function refusesBackwardsRange(page: Page, path: string, labels: { from: string; to: string }) {
  await page.goto(path);
  const bar = await filterBarReady(page);
  const to = bar.getByLabel(labels.to, { exact: true });
  await bar.getByLabel(labels.from, { exact: true }).fill("2026-03-10");
  await to.fill("2026-03-01");
  await bar.getByRole("button", { name: "Filter" }).click();
  await expect(bar.getByRole("alert")).toHaveText("The end date is before the start date");
  await expect(to).toHaveAttribute("aria-invalid", "true");
  await expect(page).not.toHaveURL(/[?&](from|to)=/);
  // The right way round, it applies.
  await to.fill("2026-03-31");
  await bar.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]from=2026-03-10(&|$)/);
  await expect(page).toHaveURL(/[?&]to=2026-03-31(&|$)/);
  await expect(bar.getByRole("alert")).toHaveCount(0);
}

const param = (name: string, value: string) =>
  new RegExp(`[?&]${name}=${encodeURIComponent(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(&|$)`);

export function listingChecks(name: keyof typeof LISTINGS, l: Listing) {
  const { path, role } = LISTINGS[name];
  const rows = l.rows ?? tableRows;
  const firstKey = (page: Page) => (l.rowKey ?? ((row) => row.textContent()))(rows(page).first());
  test.describe(`listing ${name}`, () => {
    test.describe.configure({ mode: "serial" });
    test.use({ storageState: storageFor(role) });
    let c: ListingCase;
    test.beforeAll(async ({ browser }) => {
      test.setTimeout(240_000);
      c = await l.make({ browser });
    });
    if (l.cleanup) {
      const cleanup = l.cleanup;
      test.afterAll(async ({ browser }) => cleanup({ browser }));
    }

    test(`${name}: filter and page size in the URL survive a reload and Back/Forward`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator("main h1")).toBeVisible();
      // Typed only once the page is interactive (the live channel opens from the browser's code).
      await live(page);
      if (c.filter) {
        await setFilter(page, c.filter);
        await expect(page).toHaveURL(param(c.filter.param, c.filter.value));
      }
      await expect(rows(page).filter({ hasText: c.row }).first()).toBeVisible({ timeout: 20_000 });
      if (c.paging.kind === "pages") {
        await page.getByLabel("Rows per page").selectOption(String(c.size));
        await expect(page).toHaveURL(param("size", String(c.size)));
      }
      const url = page.url();
      // Back to before the filter and the size were set, then Forward to them again.
      const steps = (c.filter ? 1 : 0) + (c.paging.kind === "pages" ? 1 : 0);
      for (let i = 0; i < steps; i++) await page.goBack();
      if (c.filter) {
        await expect(page).not.toHaveURL(param(c.filter.param, c.filter.value));
        await expect(page.locator("main").getByRole("search").getByLabel(c.filter.label, { exact: true })).not.toHaveValue(c.filter.value);
      }
      if (c.paging.kind === "pages") await expect(page).not.toHaveURL(param("size", String(c.size)));
      for (let i = 0; i < steps; i++) await page.goForward();
      await expect(page).toHaveURL(url);
      // A reload shows the same filter, size and rows.
      await page.reload();
      expect(page.url()).toBe(url);
      if (c.filter)
        await expect(page.locator("main").getByRole("search").getByLabel(c.filter.label, { exact: true })).toHaveValue(c.filter.value);
      if (c.paging.kind === "pages") await expect(page.getByLabel("Rows per page")).toHaveValue(String(c.size));
      await expect(rows(page).filter({ hasText: c.row }).first()).toBeVisible();
      // Back across a reload, to the entries the list pushed before it: the page follows the address bar.
      if (c.filter) await filterBarReady(page);
      for (let i = 0; i < steps; i++) await page.goBack();
      if (c.filter) {
        await expect(page).not.toHaveURL(param(c.filter.param, c.filter.value));
        await expect(page.locator("main").getByRole("search").getByLabel(c.filter.label, { exact: true })).not.toHaveValue(c.filter.value);
      }
      if (c.paging.kind === "pages") await expect(page.getByLabel("Rows per page")).not.toHaveValue(String(c.size));
      // A fresh load of the filtered URL for what follows (Forward is checked within one load above).
      await page.goto(url);
      await expect(rows(page).filter({ hasText: c.row }).first()).toBeVisible();
      await shots(page, "listings", name);
      if (c.filter) {
        await expect(page.locator("main").getByRole("search").getByLabel(c.filter.label, { exact: true })).toHaveValue(c.filter.value);
        await expect(rows(page).filter({ hasText: c.row }).first()).toBeVisible();
        // Clear removes every filter, back on the first page.
        await filterBarReady(page);
        await page.locator("main").getByRole("search").getByRole("button", { name: "Clear" }).click();
        await expect(page).not.toHaveURL(param(c.filter.param, c.filter.value));
        await expect(page.locator("main").getByRole("search").getByLabel(c.filter.label, { exact: true })).toHaveValue("");
      }
    });

    test(`${name}: pages`, async ({ page }) => {
      test.setTimeout(90_000);
      if (c.paging.kind === "scroll") {
        // The first read comes with the page; each later one is a cursor read of the listing's route. The next read
        // may start before any scroll (the virtualiser reads ahead), so the check is where the scroll ends: every row
        // read, through at least one cursor read, and no more to load.
        const reads: string[] = [];
        page.on("request", (r) => {
          if (/\/api\/[a-z]+\?.*cursor=/.test(r.url())) reads.push(r.url());
        });
        await page.goto(`${path}${c.paging.query}`);
        const count = page.getByTestId("blotter-count");
        await expect(count).toContainText("shown", { timeout: 20_000 });
        expect(await rows(page).count()).toBeGreaterThan(0);
        const scroller = page.getByTestId("blotter-scroller");
        await expect
          .poll(
            async () => {
              await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
              return count.textContent();
            },
            { timeout: 30_000 },
          )
          .toBe(`${c.paging.rows!.toLocaleString("en-US")} orders shown`);
        expect(reads.length).toBeGreaterThanOrEqual(Math.ceil(c.paging.rows! / c.size) - 1);
        return;
      }
      await page.goto(`${path}${c.paging.query}`);
      await expect(rows(page)).toHaveCount(c.paging.size ?? c.size, { timeout: 20_000 });
      const first = await firstKey(page);
      await page.getByRole("button", { name: "Next →" }).click();
      await expect(page.getByTestId("page-info")).toContainText("Page 2");
      await expect(page).toHaveURL(/[?&]cursor=/);
      await expect.poll(() => firstKey(page)).not.toBe(first);
      const second = await firstKey(page);
      await page.reload();
      await expect(page.getByTestId("page-info")).toContainText("Page 2");
      await expect.poll(() => firstKey(page)).toBe(second);
      await page.getByRole("button", { name: "← Previous" }).click();
      await expect(page.getByTestId("page-info")).toContainText("Page 1");
      await expect(page).not.toHaveURL(/[?&]cursor=/);
      await expect.poll(() => firstKey(page)).toBe(first);
      await page.goBack();
      await expect(page.getByTestId("page-info")).toContainText("Page 2");
    });

    test(`${name}: a change made elsewhere appears without a reload`, async ({ page }) => {
      test.setTimeout((c.liveTimeout ?? 30_000) + 60_000);
      const query = c.liveQuery ?? (c.filter ? `?${c.filter.param}=${encodeURIComponent(c.filter.value)}` : "");
      await page.goto(`${path}${query}`);
      await expect(page.locator("main h1")).toBeVisible();
      await live(page);
      let loads = 0;
      page.on("load", () => loads++);
      const appeared = await c.live(page);
      await expect(appeared).toBeVisible({ timeout: c.liveTimeout ?? 30_000 });
      expect(loads, "the page was not loaded again").toBe(0);
    });

    test(`${name}: the CSV export holds a header row and the filtered rows`, async ({ page }) => {
      test.skip(!c.csv, "this listing offers no CSV export");
      const query = c.filter ? `?${c.filter.param}=${encodeURIComponent(c.filter.value)}` : "";
      await page.goto(`${path}${query}`);
      await expect(rows(page).filter({ hasText: c.row }).first()).toBeVisible({ timeout: 20_000 });
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
      const lines = readFileSync((await download.path())!, "utf8")
        .split("\r\n")
        .filter(Boolean);
      expect(lines[0]).toContain(c.csv!.header);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.slice(1).some((line) => line.includes(c.row))).toBe(true);
      if (c.csv!.each) for (const line of lines.slice(1)) expect(line).toContain(c.csv!.each);
    });
  });
}
