import { expect, test } from "@playwright/test";
import { sandboxCall } from "./accounts-helpers";
import { storageFor } from "./helpers";

test.describe("what a reader may see, enforced on every route", () => {
  test.use({ storageState: storageFor("compliance") });

  test("the per-account routes answer only for virtual accounts: the omnibus master account is a 404, as its page is", async ({ page }) => {
    const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "1" } });
    const virtual = list.body.data[0] as { account_id: string; belong_account_id: string };
    const master = virtual.belong_account_id;
    expect((await page.goto(`/accounts/${master}`))?.status()).toBe(404);
    for (const part of ["balance", "positions", "activities"]) {
      expect((await page.request.get(`/api/accounts/${master}/${part}`)).status(), `master ${part}`).toBe(404);
      expect((await page.request.get(`/api/accounts/${virtual.account_id}/${part}`)).status(), `virtual ${part}`).toBe(200);
    }
  });
});

test.describe("the audit trail's client IP", () => {
  test.use({ storageState: storageFor("admin") });

  test("is the address the server saw, not an X-Forwarded-For value the client wrote", async ({ page, browser }) => {
    const email = `xff-${Date.now()}@brokerdesk.test`;
    const spoofing = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "6.6.6.6" } });
    const p = await spoofing.newPage();
    await p.goto("/sign-in");
    await p.getByLabel("Email").fill(email);
    await p.getByLabel("Password").fill("a-wrong-password");
    await p.getByRole("button", { name: "Sign in" }).click();
    await expect(p.locator("form").getByRole("alert")).toBeVisible();
    await spoofing.close();
    const csv = await (await page.request.get(`/api/audit/export?actor=${encodeURIComponent(email)}`)).text();
    const rows = csv.trim().split(/\r?\n/).slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(csv).not.toContain("6.6.6.6");
    expect(csv).toMatch(/127\.0\.0\.1/);
  });
});
