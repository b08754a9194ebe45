import { expect, type Page } from "@playwright/test";

/**
 * Disables every enabled approval rule on Admin → Approval rules (as an administrator), so a spec starts from, and
 * leaves behind, a desk where nothing is held: specs share one app and run in file order.
 */
export async function disableAllRules(admin: Page) {
  await admin.goto("/admin/approvals");
  await expect(admin.getByRole("heading", { name: "Approval rules" })).toBeVisible();
  const enabled = admin.getByTestId("rule-row").filter({ has: admin.getByRole("button", { name: "Disable" }) });
  while ((await enabled.count()) > 0) {
    const before = await enabled.count();
    admin.once("dialog", (d) => void d.accept());
    await enabled.first().getByRole("button", { name: "Disable" }).click();
    await expect(enabled).toHaveCount(before - 1);
  }
}
