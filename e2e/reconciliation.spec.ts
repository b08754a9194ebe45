import { expect, test } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { ROLE_EMAILS, shots, storageFor } from "./helpers";

/**
 * The end-of-day reconciliation as operations works it: a balance changed at the upstream behind the desk's back (the
 * sandbox's control API moves an account's HKD cash with no activity and no event), Run now on the page, the run's
 * progress live to its summary, the break listed with its difference, then assigned, commented on and closed (with a
 * confirmation), and the close in the audit trail.
 */
test.use({ storageState: storageFor("operations") });

test("a balance changed behind the desk's back is a break with its difference; assigned, commented on and closed (audited)", async ({
  page,
  browser,
}) => {
  test.setTimeout(480_000);
  const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } });
  const active = (list.body.data as { account_id: string; account_number: string; account_status: string }[]).filter(
    (a) => a.account_status === "ACTIVE",
  );
  const { account_id: account, account_number: number } = active[active.length - 1];
  expect(sandboxCall("POST", "/sandbox/balances/adjust", { body: { account_id: account, currency: "HKD", amount: "-77.77" } }).status).toBe(
    200,
  );

  await page.goto("/reconciliation");
  await expect(page.getByRole("heading", { name: "Reconciliation", exact: true })).toBeVisible();
  await expect(page.getByTestId("live-indicator")).toHaveText("Live");
  const runs = page.getByRole("region", { name: "Runs" });
  await runs.getByRole("button", { name: "Run now" }).click();
  await expect(page.getByText(/^Run \d+ asked for/)).toBeVisible();
  const run = Number((await page.getByText(/^Run \d+ asked for/).textContent())!.match(/Run (\d+)/)![1]);
  const row = page.getByTestId("reconciliation-runs").locator(`tr[data-run="${run}"]`);
  // Progress and the end arrive through the live channel, no reload.
  await expect(row.getByText("Done")).toBeVisible({ timeout: 120_000 });
  const bar = row.getByRole("progressbar");
  await expect(bar).toHaveAttribute("aria-valuenow", (await bar.getAttribute("aria-valuemax"))!);
  await expect(page.getByTestId("run-summary")).toContainText(`Run ${run} compared`);
  await expect(page.getByTestId("omnibus").getByRole("row", { name: /^HKD/ })).toBeVisible();

  const found = page.getByTestId("break-row").filter({ hasText: number }).filter({ hasText: "HKD" });
  await expect(found).toHaveCount(1);
  await expect(found).toContainText("-77.77 HKD");
  await expect(found).toContainText("Open");
  await shots(page, "reconciliation", "list");

  await found.getByTestId("break-link").click();
  await expect(page.getByRole("heading", { name: /^Break #\d+$/ })).toBeVisible();
  await expect(page.getByTestId("break-difference")).toHaveText("-77.77 HKD");
  await expect(page.getByTestId("live-indicator")).toHaveText("Live");

  const assign = page.getByRole("form", { name: "Assign" });
  await assign.getByLabel("Assigned to").selectOption(ROLE_EMAILS.operations);
  await assign.getByRole("button", { name: "Assign" }).click();
  await expect(page.getByText(`Assigned to ${ROLE_EMAILS.operations}.`)).toBeVisible();
  await expect(page.getByTestId("break-facts")).toContainText(ROLE_EMAILS.operations);

  const comment = page.getByRole("form", { name: "Comment" });
  await comment.getByLabel("Comment").fill("The upstream booked an HKD correction we never received an activity for.");
  await comment.getByRole("button", { name: "Add comment" }).click();
  await expect(page.getByTestId("break-comments")).toContainText("HKD correction");

  const close = page.getByRole("form", { name: "Close" });
  await close.getByRole("button", { name: "Close break" }).click();
  await expect(close.getByLabel("Resolution")).toHaveAttribute("aria-invalid", "true");
  await close.getByLabel("Resolution").fill("Confirmed with the upstream's operations; correction booked on our side.");
  page.once("dialog", (d) => void d.accept());
  await close.getByRole("button", { name: "Close break" }).click();
  await expect(page.getByTestId("break-status")).toHaveText("Closed");
  await expect(page.getByTestId("break-resolution")).toContainText("Confirmed with the upstream");
  await shots(page, "reconciliation", "break");

  // Compliance reads the trail (operations may not).
  const compliance = await browser.newContext({ storageState: storageFor("compliance") });
  const audit = await compliance.newPage();
  await audit.goto("/audit?action=reconciliation.break_close");
  await expect(audit.getByTestId("audit-row").first()).toContainText("success");
  await expect(audit.getByTestId("audit-row").first()).toContainText(ROLE_EMAILS.operations);
  await compliance.close();
});
