import { expect, test } from "@playwright/test";
import { sandboxCall } from "./accounts-helpers";
import { shots, storageFor } from "./helpers";

/**
 * The status page against the e2e sandbox. The webServer evaluates every 2 s over a 20 s window (playwright.config.ts):
 * an idle module is probed every 5 s and changes after two evaluations in a row, so a module's outage, and its
 * recovery, show within about 10 s (15 s allowed here).
 */
const DETECTION_MS = 15_000;
const setOrder = (state: "outage" | "normal") =>
  expect(sandboxCall("POST", "/sandbox/modules/order", { body: { state } }).status).toBe(200);

test.describe("upstream status", () => {
  test.use({ storageState: storageFor("support") });
  test.afterEach(() => {
    sandboxCall("POST", "/sandbox/modules/order", { body: { state: "normal" } });
  });

  test("the Order module in outage shows as the only outage within seconds, with its incident, and recovers", async ({ page }) => {
    await page.goto("/status");
    await expect(page.getByRole("heading", { name: "Upstream status" })).toBeVisible();
    const order = page.getByTestId("status-module-order");
    const outages = page.locator('[data-testid^="status-module-"][data-state="outage"]');
    await expect(order).toHaveAttribute("data-state", "operational", { timeout: DETECTION_MS });
    await expect(outages).toHaveCount(0);
    await expect(order.getByTestId("uptime-bar")).toHaveCount(90);

    setOrder("outage");
    let since = Date.now();
    await expect(order).toHaveAttribute("data-state", "outage", { timeout: DETECTION_MS });
    test.info().annotations.push({ type: "outage shown after", description: `${Date.now() - since} ms` });
    await expect(outages).toHaveCount(1);
    // The state's badge (the first "Outage" of the row; the incident below names its state too).
    await expect(order.getByText("Outage", { exact: true }).first()).toBeVisible();
    await expect(order.getByTestId("incident").first()).toContainText("ongoing");
    await expect(order.getByTestId("incident").first()).toContainText("the probe failed");
    await expect(page.getByTestId("status-summary")).toContainText("1 module in outage");
    await shots(page, "status", "order-outage");

    setOrder("normal");
    since = Date.now();
    await expect(order).toHaveAttribute("data-state", "operational", { timeout: DETECTION_MS });
    test.info().annotations.push({ type: "recovery shown after", description: `${Date.now() - since} ms` });
    console.log(
      test
        .info()
        .annotations.map((a) => `${a.type} ${a.description}`)
        .join("; "),
    );
    await expect(order.getByTestId("incident").first()).not.toContainText("ongoing");
    await expect(order.getByTestId("incident").first()).toContainText("back: the probe answered");
    await expect(outages).toHaveCount(0);
    await shots(page, "status", "order-recovered");
  });
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("without STATUS_PUBLIC the page and its data ask for sign-in", async ({ page }) => {
    await page.goto("/status");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fstatus/);
    expect((await page.request.get("/api/status", { maxRedirects: 0 })).status()).not.toBe(200);
  });
});
