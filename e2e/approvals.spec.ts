import { expect, test } from "./fixtures";
import { disableAllRules, holdCashJournalsAbove, sendCashJournal } from "./approvals-helpers";
import { DEMO_PASSWORD, expectSignedIn, filterBarReady, openPage, signIn, storageFor } from "./helpers";
import { listingChecks } from "./listing-checks";

test.describe("Admin → Approval rules", () => {
  test.use({ storageState: storageFor("admin") });

  // The app is shared by every spec: leave no rule that would hold a later spec's movements or updates.
  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage({ storageState: storageFor("admin") });
    await disableAllRules(page);
    await page.close();
  });

  test("creates a rule, refuses a bad threshold, edits, disables and enables it", async ({ page }) => {
    await openPage(page, "/admin/approvals", "Approval rules");
    const form = page.getByRole("form", { name: "New rule" });

    // The shared schema's message lands on the field.
    await form.getByLabel("Above amount").fill("ten thousand");
    await form.getByRole("button", { name: "Create rule" }).click();
    await expect(form.getByText("Enter an amount such as 10000")).toBeVisible();

    await form.getByLabel("Action").selectOption({ label: "Cash journal" });
    await form.getByLabel("Currency").selectOption("USD");
    await form.getByLabel("Above amount").fill("10000");
    await form.getByLabel("Approvers needed").selectOption("1");
    await form.getByLabel("Operations").check();
    await form.getByLabel("Administrator").check();
    await form.getByRole("button", { name: "Create rule" }).click();
    await expect(page.getByText("Rule created.")).toBeVisible();
    const row = page.getByTestId("rule-row").filter({ hasText: "10,000.00 USD" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Cash journal");
    await expect(row).toContainText("Administrator, Operations");
    await expect(row.getByText("Enabled")).toBeVisible();

    // Edit: two approvers; the same row changes.
    await row.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("form", { name: "Edit rule" });
    await expect(edit.getByLabel("Above amount")).toHaveValue("10000");
    await edit.getByLabel("Approvers needed").selectOption("2");
    await edit.getByRole("button", { name: "Save rule" }).click();
    await expect(page.getByText("Rule saved.")).toBeVisible();
    await expect(row.locator("td").nth(3)).toHaveText("2");

    // Unticking "Enabled" in the form asks as the Disable button does; declined, nothing is saved.
    await row.getByRole("button", { name: "Edit" }).click();
    const off = page.getByRole("form", { name: "Edit rule" });
    await off.getByLabel("Enabled", { exact: true }).uncheck();
    let question = "";
    page.once("dialog", (d) => {
      question = d.message();
      void d.dismiss();
    });
    await off.getByRole("button", { name: "Save rule" }).click();
    await expect
      .poll(() => question)
      .toBe('Disable the rule "Cash journal in USD above 10,000.00 USD"? Such requests will no longer be held.');
    await off.getByRole("button", { name: "Cancel" }).click();
    await expect(row.getByText("Enabled")).toBeVisible();

    // Disabling is confirmed, naming the rule.
    page.once("dialog", (d) => {
      expect(d.message()).toContain("Cash journal in USD above 10,000.00");
      void d.accept();
    });
    await row.getByRole("button", { name: "Disable" }).click();
    await expect(row.getByText("Disabled")).toBeVisible();
    page.once("dialog", (d) => void d.accept());
    await row.getByRole("button", { name: "Enable" }).click();
    await expect(row.getByText("Enabled")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("rule-row").filter({ hasText: "10,000.00 USD" }).locator("td").nth(3)).toHaveText("2");
  });

  test("offers no currency or threshold for an action without an amount", async ({ page }) => {
    await page.goto("/admin/approvals");
    const form = page.getByRole("form", { name: "New rule" });
    await form.getByLabel("Currency").selectOption("HKD");
    await form.getByLabel("Above amount").fill("5000");
    await form.getByLabel("Action").selectOption({ label: "Option level raised to LV3 or LV4" });
    await expect(form.getByLabel("Above amount")).toBeDisabled();
    await expect(form.getByLabel("Above amount")).toHaveValue("");
    await expect(form.getByLabel("Currency")).toBeDisabled();
    await expect(form.getByLabel("Currency")).toHaveValue("");
    await form.getByLabel("Operations").uncheck();
    await form.getByLabel("Administrator").check();
    await form.getByRole("button", { name: "Create rule" }).click();
    await expect(page.getByText("Rule created.")).toBeVisible();
    await expect(page.getByTestId("rule-row").filter({ hasText: "Option level raised to LV3 or LV4" })).toContainText("Always");
  });
});

test.describe("Approvals inbox", () => {
  test("operations see the inbox, empty under a filter nothing matches, and cannot edit rules", async ({ browser }) => {
    const page = await browser.newPage({ storageState: storageFor("operations") });
    await openPage(page, "/approvals", "Approvals");
    for (const column of ["Request", "Maker", "Age", "Approvals", "Expires in", "Status"]) {
      await expect(page.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
    }
    // Other specs leave requests in the shared app: a request is executing only while it is being sent.
    await filterBarReady(page);
    await page.getByRole("combobox", { name: "Status" }).selectOption("executing");
    await expect.poll(() => page.url()).toContain("status=executing");
    await expect(page.getByText("No approval requests match these filters.")).toBeVisible();
    const forbidden = await page.goto("/admin/approvals");
    expect(forbidden?.status()).toBe(403);
    const missing = await page.goto("/approvals/00000000-0000-4000-8000-000000000000");
    expect(missing?.status()).toBe(404);
    await expect(page.getByText("No such approval request")).toBeVisible();
    await page.close();
  });

  test("support has no inbox; compliance reads it", async ({ browser }) => {
    const support = await browser.newPage({ storageState: storageFor("support") });
    expect((await support.goto("/approvals"))?.status()).toBe(403);
    await support.close();
    const compliance = await browser.newPage({ storageState: storageFor("compliance") });
    expect((await compliance.goto("/approvals"))?.status()).toBe(200);
    await compliance.close();
  });

  test("the second demo operator can sign in", async ({ page }) => {
    await signIn(page, "ops2@brokerdesk.test", DEMO_PASSWORD);
    await expectSignedIn(page, "ops2@brokerdesk.test");
  });
});

// The listing checks: a rule that holds every USD cash journal above 1, eleven held journals of this run (more than
// the smallest page), and one more sent in another browser appears in the open inbox. The rule is disabled after.
listingChecks("approvals", {
  // A row's age and time to expiry are minutes from the read: a row is named by its request's link.
  rowKey: (row) => row.getByRole("link").first().getAttribute("href"),
  async make({ browser }) {
    const admin = await browser.newPage({ storageState: storageFor("admin") });
    await holdCashJournalsAbove(admin, "1");
    await expect(admin.getByText("Rule created.")).toBeVisible();
    await admin.close();
    const ops = await browser.newPage({ storageState: storageFor("operations") });
    // Amounts of this run: 7.31 … 7.41 USD (the summary says "Cash journal of 7.31 USD …").
    for (let i = 0; i < 11; i++) {
      await sendCashJournal(ops, `7.${31 + i}`);
      await expect(ops.getByText("Sent for approval", { exact: true })).toBeVisible();
    }
    await ops.close();
    return {
      filter: { label: "Status", param: "status", value: "pending", kind: "select" },
      row: "7.41 USD", // the newest: on the first page whatever its size
      size: 10,
      paging: { kind: "pages", query: "?status=pending&size=10" },
      async live(page) {
        const other = await browser.newPage({ storageState: storageFor("operations") });
        await sendCashJournal(other, "7.99");
        await other.close();
        return page.getByTestId("approval-row").filter({ hasText: "7.99 USD" });
      },
    };
  },
  async cleanup({ browser }) {
    const admin = await browser.newPage({ storageState: storageFor("admin") });
    await disableAllRules(admin);
    await admin.close();
  },
});
