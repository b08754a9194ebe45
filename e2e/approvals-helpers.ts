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

/** The master account's number and a virtual account of the seed, for cash journals between them. */
export const MASTER_NUMBER = "FV000123";
export const JOURNAL_TARGET = "VBD1000005";

/** Sends a cash journal from the master account to `to` on the form, through review, as the page's user. */
export async function sendCashJournal(page: Page, amount: string, to = JOURNAL_TARGET) {
  await page.goto("/movements/new/cash-journal");
  await page.getByLabel("From account", { exact: true }).fill("master");
  await page
    .getByRole("listbox", { name: "Accounts for from account" })
    .getByRole("option", { name: new RegExp(MASTER_NUMBER) })
    .click();
  await page.getByLabel("To account", { exact: true }).fill(to);
  await page
    .getByRole("listbox", { name: "Accounts for to account" })
    .getByRole("option", { name: new RegExp(to) })
    .click();
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByRole("button", { name: "Review", exact: true }).click();
  await page.getByRole("button", { name: /Send cash journal/ }).click();
  await expect(page.getByTestId("movement-outcome")).toBeVisible();
}

/** Creates the rule "cash journal in USD above `above` needs one administrator" on Admin → Approval rules. */
export async function holdCashJournalsAbove(admin: Page, above: string) {
  await disableAllRules(admin);
  const form = admin.getByRole("form", { name: "New rule" });
  await form.getByLabel("Action").selectOption({ label: "Cash journal" });
  await form.getByLabel("Currency").selectOption("USD");
  await form.getByLabel("Above amount").fill(above);
  await form.getByLabel("Approvers needed").selectOption("1");
  await form.getByLabel("Administrator").check();
  await form.getByRole("button", { name: "Create rule" }).click();
}
