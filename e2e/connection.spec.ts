import { expect, test } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { storageFor } from "./helpers";

test.describe("Admin → Connection", () => {
  test.use({ storageState: storageFor("admin") });

  test("shows the sandbox upstream with a masked key, starts a new token and audits it", async ({ page }) => {
    await page.goto("/admin/connection");
    await expect(page.getByText("Embedded sandbox")).toBeVisible();
    await expect(page.getByText("brok…-key")).toBeVisible();
    await expect(page.getByText("brokerdesk-demo-secret")).toHaveCount(0);
    await expect(page.getByText("resource (x-version v3)")).toBeVisible();

    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Start new token" }).click();
    await expect(page.getByText("A new token was requested.")).toBeVisible();
    // The sandbox runs in demo mode: 2FA is confirmed at once, as in the upstream's test environment.
    await expect(page.getByTestId("token-state")).toContainText("NORMAL", { timeout: 20_000 });
    await expect(page.getByText("by admin@brokerdesk.test")).toBeVisible();

    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByText("Token refreshed.")).toBeVisible();

    await page.goto("/audit?action=connection.start_token");
    await expect(page.getByTestId("audit-row").first()).toContainText("success");
  });

  test("waits for the two-factor confirmation and updates by itself when it comes", async ({ page }) => {
    expect(sandboxCall("POST", "/sandbox/settings", { body: { auto_confirm_2fa: false } }).status).toBe(200);
    try {
      await page.goto("/admin/connection");
      page.once("dialog", (d) => d.accept());
      await page.getByRole("button", { name: "Start new token" }).click();
      await expect(page.getByTestId("token-state")).toContainText("PENDING");
      await expect(page.getByText("Waiting for the two-factor confirmation; this page updates by itself.")).toBeVisible();
      // The account holder confirms on their phone: nothing is clicked on this page.
      expect(sandboxCall("POST", "/sandbox/tokens/confirm", { body: {} }).status).toBe(200);
      await expect(page.getByTestId("token-state")).toContainText("NORMAL", { timeout: 20_000 });
      await expect(page.getByText("Waiting for the two-factor confirmation")).toHaveCount(0);
    } finally {
      sandboxCall("POST", "/sandbox/settings", { body: { auto_confirm_2fa: true } });
    }
  });

  test("is refused to operations, page and data route alike", async ({ browser }) => {
    const ops = await browser.newContext({ storageState: storageFor("operations") });
    const page = await ops.newPage();
    expect((await page.goto("/admin/connection"))?.status()).toBe(403);
    const api = await page.request.get("/api/connection");
    expect(api.status()).toBe(403);
    expect(await api.text()).not.toContain("baseUrl");
    await ops.close();
  });
});
