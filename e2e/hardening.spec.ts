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
