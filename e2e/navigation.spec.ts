import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, expectSignedIn, ROLE_EMAILS, signIn, storageFor, type DemoRole } from "./helpers";

const SETTINGS = ["Access tokens", "Command line", "Security"];
/** The desk's pages in the menu's order, and the ones a back office's readers of money share. */
const DESK = [
  "Home",
  "Accounts",
  "Orders",
  "Movements",
  "Statements",
  "Reconciliation",
  "Approvals",
  "Markets",
  "Upstream status",
  "Activities",
];
const EXPECTED_NAV: Record<DemoRole, string[]> = {
  admin: [
    ...DESK,
    "Audit trail",
    "Alerts",
    "Surveillance rules",
    "Staff",
    "Roles",
    "Connection",
    "Approval rules",
    "Event stream",
    "Jobs",
    "Mail",
    "Reports",
    ...SETTINGS,
  ],
  operations: [...DESK, "Event stream", ...SETTINGS],
  support: ["Home", "Accounts", "Orders", "Markets", "Upstream status", ...SETTINGS],
  compliance: [...DESK, "Audit trail", "Alerts", ...SETTINGS],
};

for (const role of Object.keys(EXPECTED_NAV) as DemoRole[]) {
  test.describe(`as ${role}`, () => {
    test.use({ storageState: storageFor(role) });

    test("sees exactly its own navigation, and every link works", async ({ page }) => {
      await page.goto("/");
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link")).toHaveText(EXPECTED_NAV[role]);
      for (const link of await nav.getByRole("link").all()) {
        const href = await link.getAttribute("href");
        const response = await page.request.get(href!);
        expect(response.status(), `${href} answers`).toBe(200);
      }
      await expect(page.getByTestId("current-role")).toBeVisible();
    });
  });
}

test.describe("the shell", () => {
  test.use({ storageState: storageFor("operations") });

  test("has a favicon, and no page load asks for anything that is not there", async ({ page }) => {
    const missing: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    for (const path of ["/", "/accounts", "/orders"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
    expect(icon).toBeTruthy();
    const res = await page.request.get(icon!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("image/");
    expect(missing).toEqual([]);
  });
});

test.describe("home", () => {
  test.describe("as support", () => {
    test.use({ storageState: storageFor("support") });

    test("names support's main job and how to start it", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByText(/Your job: help customers with their orders: find one by the customer's account number/)).toBeVisible();
      await expect(page.getByTestId("capabilities")).toContainText(
        "Find a customer's order by their account number or the order's id (the search box at the top), then replace or cancel it with a reason",
      );
    });
  });

  test("operations starts the day with open orders (opening the blotter filtered), movements, the stream and its own activity", async ({
    browser,
  }) => {
    // A fresh sign-in: it is then this person's latest entry, whatever earlier specs did as operations.
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await signIn(page, ROLE_EMAILS.operations, DEMO_PASSWORD);
    await expectSignedIn(page, ROLE_EMAILS.operations);
    await page.goto("/");
    const orders = page.getByTestId("home-count-open-orders");
    await expect(orders).toContainText("Open orders");
    await expect(orders).toContainText(/\d+/);
    await expect(page.getByTestId("home-count-open-movements")).toContainText("Movements not final");
    await expect(page.getByTestId("home-stream")).toContainText(/Connected|Silent|Down|No consumer/);
    // what was done, in words (the exact action name on hover), never the raw name
    const recent = page.getByTestId("home-recent");
    await expect(recent.getByTitle("auth.sign_in").first()).toHaveText("Signed in");
    await expect(recent).not.toContainText("auth.sign_in");
    // A sign-in's target is oneself: no line for it, and no staff id (a uuid) anywhere in the list.
    await expect(recent).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
    await expect(recent).toContainText("Done");
    await orders.click();
    await expect(page).toHaveURL(/\/orders\?view=open/);
    await ctx.close();
  });

  test("support sees only what its role reads: open orders, no movements, no stream", async ({ browser }) => {
    const ctx = await browser.newContext({ storageState: storageFor("support") });
    const page = await ctx.newPage();
    await page.goto("/");
    await expect(page.getByTestId("home-count-open-orders")).toBeVisible();
    await expect(page.getByTestId("home-count-open-movements")).toHaveCount(0);
    await expect(page.getByTestId("home-stream")).toHaveCount(0);
    await ctx.close();
  });
});
