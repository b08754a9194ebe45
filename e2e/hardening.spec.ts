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

  test("is the address the server saw, not an X-Forwarded-For value the client wrote", async ({ page }) => {
    // An export is itself audited: one made with a forged header, then read back through a second export.
    const marker = `xff-${Date.now()}`;
    const forged = await page.request.get(`/api/audit/export?action=${marker}`, { headers: { "x-forwarded-for": "6.6.6.6" } });
    expect(forged.status()).toBe(200);
    const csv = await (await page.request.get("/api/audit/export?action=audit.export")).text();
    const line = csv.split(/\r?\n/).find((l) => l.includes(marker));
    expect(line, "the forged export's audit entry").toBeDefined();
    // No trusted proxy in front of the e2e app (TRUSTED_PROXY_HOPS=0): the forged value is not recorded.
    expect(line).not.toContain("6.6.6.6");
  });
});
