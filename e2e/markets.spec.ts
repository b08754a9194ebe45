import { expect, test, type Locator, type Page } from "./fixtures";
import { pauseMarketTimer, sandboxCall } from "./accounts-helpers";
import { openPage, shots, storageFor } from "./helpers";

/**
 * The markets page: each screener's rows are the sandbox's answer to the same call (the market timer is paused for
 * the spec, so a ranking read twice is the same), and every symbol links to its instrument page.
 */
const RESOURCE = {
  gainers: "/market-data/screeners/gainers-losers/list",
  "top-active": "/market-data/screeners/top-actives/list",
  "high-dividend": "/market-data/screeners/high-dividend-ranks/list",
  week52: "/market-data/screeners/week52-high-low/list",
  sectors: "/market-data/screeners/market-sectors/list",
  "sector-detail": "/market-data/screeners/market-sectors-detail/list",
} as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- upstream JSON read ad hoc
type Row = any;
const upstream = (path: string, query: Record<string, string>): Row => {
  const r = sandboxCall("GET", path, { query: { category: "US_STOCK", ...query } });
  expect(r.status, path).toBe(200);
  return Array.isArray(r.body) ? r.body : r.body.data;
};

async function rowsOf(panel: Locator) {
  await expect(panel.getByTestId("screener-row").first()).toBeVisible();
  return panel.getByTestId("screener-row").evaluateAll((trs) =>
    trs.map((tr) => ({
      symbol: tr.getAttribute("data-symbol"),
      price: tr.querySelector('[data-col="price"]')?.getAttribute("data-value"),
      change_ratio: tr.querySelector('[data-col="change_ratio"]')?.getAttribute("data-value"),
      href: tr.querySelector("a")?.getAttribute("href"),
    })),
  );
}

/** The panel shows the upstream's first page in its order; `keep`: only those of its rows that belong under the title. */
async function expectRanking(page: Page, id: keyof typeof RESOURCE, query: Record<string, string>, keep: (r: Row) => boolean = () => true) {
  const shown = await rowsOf(page.getByTestId(`screener-${id}`));
  const want = upstream(RESOURCE[id], query).slice(0, 20).filter(keep);
  expect(
    shown.map((r) => r.symbol),
    id,
  ).toEqual(want.map((r: Row) => r.symbol));
  expect(
    shown.map((r) => [r.price, r.change_ratio]),
    id,
  ).toEqual(want.map((r: Row) => [r.price, r.change_ratio]));
  for (const r of shown) expect(r.href).toBe(`/instruments/US/${r.symbol}`);
}

test.describe("markets", () => {
  test.use({ storageState: storageFor("support") });
  pauseMarketTimer();

  test("each screener shows the sandbox's ranking, and a symbol opens its instrument page", async ({ page }) => {
    await openPage(page, "/markets", "Markets");

    // Top gainers: the ranking by change, highest first, as far as the changes are gains (a quiet day has fewer than 20).
    await expectRanking(
      page,
      "gainers",
      { rank_type: "DAY_1", sort_by: "CHANGE_RATIO", direction: "DESC" },
      (r) => Number(r.change_ratio) > 0,
    );
    await expectRanking(page, "top-active", { rank_type: "VOLUME", direction: "DESC" });
    await expectRanking(page, "high-dividend", { sort_by: "YIELD", direction: "DESC" });
    await expectRanking(page, "week52", { rank_type: "NEAR_HIGH" });

    // Sectors: the same sectors in the same order; the detail shows the first sector's members.
    const sectors = upstream(RESOURCE.sectors, { agg_type: "MARKET_VALUE", direction: "DESC" });
    const shownSectors = page.getByTestId("screener-sectors").getByTestId("sector-row");
    await expect(shownSectors).toHaveCount(sectors.length);
    expect(await shownSectors.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-sector")))).toEqual(
      sectors.map((s: Row) => s.sector_id),
    );
    const detail = sandboxCall("GET", RESOURCE["sector-detail"], {
      query: { category: "US_STOCK", sector_id: sectors[0].sector_id, sort_by: "CHANGE_RATIO", direction: "DESC" },
    }).body;
    const shownDetail = await rowsOf(page.getByTestId("screener-sector-detail"));
    expect(shownDetail.map((r) => [r.symbol, r.price])).toEqual(detail.data.slice(0, 20).map((r: Row) => [r.symbol, r.price]));

    // Losers: the same call with ASC.
    await page.getByLabel("Gainers or losers").selectOption("ASC");
    await expect(page.getByTestId("screener-gainers").getByRole("heading", { name: "Top losers" })).toBeVisible();
    await expect
      .poll(async () => (await rowsOf(page.getByTestId("screener-gainers")))[0].symbol)
      .toBe(upstream(RESOURCE.gainers, { rank_type: "DAY_1", sort_by: "CHANGE_RATIO", direction: "ASC" })[0].symbol);

    await shots(page, "markets", "markets");

    // A row's link leads to its instrument page.
    const first = page.getByTestId("screener-top-active").locator("[data-symbol-link]").first();
    const symbol = await first.textContent();
    await expect(first).toHaveAttribute("href", `/instruments/US/${symbol}`);
    await first.click();
    await expect(page).toHaveURL(new RegExp(`/instruments/US/${symbol}$`));
    // The page the row leads to quotes that instrument, at the price the screener showed (the market is paused).
    await expect(page.locator("main h1")).toHaveText(symbol!);
    const shown = upstream(RESOURCE["top-active"], { rank_type: "VOLUME", direction: "DESC" }).find((r: Row) => r.symbol === symbol);
    await expect
      .poll(async () => Number((await page.getByTestId("quote-last").textContent())?.replace(/,/g, "")))
      .toBe(Number(shown.price));
  });

  test("a failing screener shows its error with a Retry while the others carry on", async ({ page }) => {
    await page.route("**/api/markets/high-dividend?*", (route) =>
      route.fulfill({
        status: 502,
        contentType: "application/json",
        body: JSON.stringify({ error: "UPSTREAM", message: "The broker did not answer." }),
      }),
    );
    await page.goto("/markets");
    const panel = page.getByTestId("screener-high-dividend");
    await expect(panel.getByRole("alert")).toContainText("The broker did not answer.");
    await expect(panel.getByRole("button", { name: "Retry" })).toBeVisible();
    await expect(page.getByTestId("screener-gainers").getByTestId("screener-row").first()).toBeVisible();
  });
});
