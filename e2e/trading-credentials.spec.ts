import { expect, test } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { storageFor } from "./helpers";

/** Trading API access on the account page: operations issue (the secret shown once) and revoke (asked to confirm); support does not see it. */
const firstAccount = () => {
  const res = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "1", account_status: "ACTIVE" } });
  expect(res.status).toBe(200);
  return res.body.data[0].account_id as string;
};

test.describe("as operations", () => {
  test.use({ storageState: storageFor("operations") });

  test("issues Trading API credentials, sees the secret once, and revokes them", async ({ page }) => {
    const accountId = firstAccount();
    await page.goto(`/accounts/${accountId}`);
    const panel = page.getByTestId("trading-credentials-panel");
    await panel.getByRole("button", { name: "Issue credentials" }).click();
    const issued = panel.getByTestId("issued-credentials");
    await expect(issued).toContainText("shown once");
    const appKey = (await issued.locator("dd").nth(0).textContent())!.trim();
    const secret = (await issued.locator("dd").nth(1).textContent())!.trim();
    expect(appKey).toMatch(/^ta-/);
    expect(secret.length).toBeGreaterThan(10);

    // The upstream holds the key for this account.
    const listed = sandboxCall("GET", "/sandbox/trading-credentials", { query: { account_id: accountId } });
    expect(listed.body.data.map((c: { app_key: string }) => c.app_key)).toContain(appKey);

    // A reload forgets the secret; the key stays listed as ACTIVE.
    await page.reload();
    await expect(panel.getByRole("row", { name: new RegExp(appKey) })).toContainText("ACTIVE");
    await expect(page.getByText(secret)).toHaveCount(0);

    // Revoking asks first, naming the key; dismissed, the key stays active upstream.
    const revoke = () =>
      panel
        .getByRole("row", { name: new RegExp(appKey) })
        .getByRole("button", { name: "Revoke" })
        .click();
    page.once("dialog", (d) => {
      expect(d.message()).toContain(`Revoke the key ${appKey}?`);
      void d.dismiss();
    });
    await revoke();
    await expect(panel.getByRole("row", { name: new RegExp(appKey) })).toContainText("ACTIVE");
    const kept = sandboxCall("GET", "/sandbox/trading-credentials", { query: { account_id: accountId } });
    expect(kept.body.data.find((c: { app_key: string }) => c.app_key === appKey).status).toBe("ACTIVE");

    page.once("dialog", (d) => void d.accept());
    await revoke();
    await expect(panel.getByRole("row", { name: new RegExp(appKey) })).toContainText("REVOKED");
    const after = sandboxCall("GET", "/sandbox/trading-credentials", { query: { account_id: accountId } });
    expect(after.body.data.find((c: { app_key: string }) => c.app_key === appKey).status).toBe("REVOKED");
  });
});

test.describe("as support", () => {
  test.use({ storageState: storageFor("support") });

  test("does not see the Trading API panel", async ({ page }) => {
    await page.goto(`/accounts/${firstAccount()}`);
    await expect(page.getByTestId("balance-panel")).toBeVisible();
    await expect(page.getByTestId("trading-credentials-panel")).toHaveCount(0);
  });
});
