import { expect, test } from "@playwright/test";
import { storageFor, type DemoRole } from "./helpers";

const EXPECTED_NAV: Record<DemoRole, string[]> = {
  admin: ["Home", "Accounts", "Orders", "Movements", "Approvals", "Audit trail", "Alerts", "Surveillance rules", "Staff", "Connection", "Approval rules", "Event stream"],
  operations: ["Home", "Accounts", "Orders", "Movements", "Approvals", "Event stream"],
  support: ["Home", "Accounts", "Orders"],
  compliance: ["Home", "Accounts", "Orders", "Movements", "Approvals", "Audit trail", "Alerts"],
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
