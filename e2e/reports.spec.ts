import fs from "node:fs";
import { expect, test } from "./fixtures";
import { ROLE_EMAILS, shots, storageFor } from "./helpers";

/**
 * Scheduled reports as an administrator uses them: a schedule made on Admin → Reports, "Run now", the run in the
 * history as sent (live) with its file to download, the mail with its attachment on Admin → Mail (the embedded SMTP
 * server), and the schedule deleted after a confirmation while its run stays in the history.
 */
test.describe("scheduled reports", () => {
  test.use({ storageState: storageFor("admin") });

  test("an admin schedules a report, runs it now, and the mail arrives", async ({ page }) => {
    const name = `Ops movements ${Date.now().toString(36)}`;
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.goto("/admin/reports");
    await expect(page.getByRole("heading", { name: "Scheduled reports" })).toBeVisible();
    await expect(page.getByText("Each run covers the UTC day before it")).toBeVisible();

    const form = page.getByRole("form", { name: "New schedule" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Report").selectOption({ label: "Daily movements" });
    await form.getByLabel("Format").selectOption({ label: "CSV" });
    await form.getByLabel("When").selectOption({ label: "Every day" });
    await form.getByLabel("At (UTC)").fill("23:59");
    await form.getByRole("checkbox", { name: ROLE_EMAILS.operations }).check();
    await form.getByRole("checkbox", { name: ROLE_EMAILS.compliance }).check();
    await form.getByRole("button", { name: "Create schedule" }).click();
    await expect(form).toContainText(`${name} saved.`);

    const row = page.getByTestId("report-schedules").locator(`tr[data-schedule="${name}"]`);
    await expect(row).toContainText("Every day at 23:59");
    await expect(row).toContainText(`${ROLE_EMAILS.compliance}${ROLE_EMAILS.operations}`);
    await row.getByRole("button", { name: "Run now" }).click();
    await expect(page.getByText(`of ${name} asked for`)).toBeVisible();

    // The reports job renders and queues it; the outbox sends it; the history follows live, without a reload.
    const run = page.getByTestId("report-runs").getByRole("row").filter({ hasText: name }).first();
    await expect(run).toContainText("Sent", { timeout: 30_000 });
    await expect(run).toContainText(day);
    await expect(run).toContainText(`Run now by ${ROLE_EMAILS.admin}`);
    await shots(page, "reports", "page");

    // The run keeps the file its mails carried: the history downloads it.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      run.getByRole("link", { name: `Download daily-movements-${day}.csv` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`daily-movements-${day}.csv`);
    const csv = fs.readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
    expect(csv.split("\r\n")[0]).toMatch(/^Time \(UTC\),Kind,/);

    await page.goto("/admin/mail");
    const subject = `[Brokerdesk report] ${name}: Daily movements ${day}`;
    const mail = page.getByRole("row").filter({ hasText: ROLE_EMAILS.operations }).getByRole("link", { name: subject });
    await expect(mail).toBeVisible();
    await mail.click();
    const body = page.getByTestId("mail-body");
    await expect(body).toContainText(`Daily movements for ${day} (UTC day)`);
    await expect(body).toContainText(`Attached: daily-movements-${day}.csv`);
    const attachments = page.getByTestId("mail-attachments");
    await expect(attachments.getByRole("link", { name: `daily-movements-${day}.csv` })).toBeVisible();
    await expect(attachments).toContainText("text/csv");
    await shots(page, "reports", "mail");

    await page.goto("/admin/reports");
    const again = page.getByTestId("report-schedules").locator(`tr[data-schedule="${name}"]`);
    // Disabling asks first, naming the schedule; declined, it stays enabled.
    let question = "";
    page.once("dialog", (d) => {
      question = d.message();
      void d.dismiss();
    });
    await again.getByRole("button", { name: "Disable" }).click();
    await expect.poll(() => question).toBe(`Disable the schedule ${name}? Its recipients get no more reports until it is enabled again.`);
    await expect(again.getByRole("button", { name: "Disable" })).toBeVisible();
    page.once("dialog", (d) => void d.accept());
    await again.getByRole("button", { name: "Disable" }).click();
    await expect(again).toContainText("Disabled");
    await expect(again).toContainText("Not while disabled");
    await again.getByRole("link", { name: "Edit" }).click();
    const edit = page.getByRole("form", { name: `Edit schedule: ${name}` });
    await expect(edit.getByLabel("Name")).toHaveValue(name);
    await expect(edit.getByRole("checkbox", { name: ROLE_EMAILS.operations })).toBeChecked();
    await shots(page, "reports", "edit");
    await edit.getByLabel("Format").selectOption({ label: "PDF" });
    await edit.getByLabel("Enabled", { exact: true }).check();
    await edit.getByRole("button", { name: "Save schedule" }).click();
    await expect(edit).toContainText(`${name} saved. Next run`);
    await expect(again).toContainText("Daily movementsPDF");
    await expect(again).toContainText("Enabled");

    page.once("dialog", (d) => void d.accept());
    await page.getByTestId("report-schedules").locator(`tr[data-schedule="${name}"]`).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("report-schedules").locator(`tr[data-schedule="${name}"]`)).toHaveCount(0);
    await expect(page.getByTestId("report-runs").getByRole("row").filter({ hasText: name }).first()).toContainText("Sent");
  });

  test("the run history reads older runs a page at a time", async ({ page }) => {
    const name = `Paging ${Date.now().toString(36)}`;
    await page.goto("/admin/reports");
    const form = page.getByRole("form", { name: "New schedule" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Report").selectOption({ label: "Alerts opened and cleared" });
    await form.getByRole("checkbox", { name: ROLE_EMAILS.admin }).check();
    await form.getByRole("button", { name: "Create schedule" }).click();
    await expect(form).toContainText(`${name} saved.`);

    // 31 runs: one more than a page.
    const runNow = page.getByTestId("report-schedules").locator(`tr[data-schedule="${name}"]`).getByRole("button", { name: "Run now" });
    const asked = page.getByText(new RegExp(`^Run \\d+ of ${name} asked for`));
    let last = "";
    for (let k = 0; k < 31; k++) {
      await runNow.click();
      await expect(asked).not.toHaveText(last);
      last = (await asked.textContent()) ?? "";
    }
    const mine = page.getByTestId("report-runs").locator("tr[data-run]", { hasText: name });
    const older = page.getByRole("button", { name: "Older runs" });
    await expect(older).toBeVisible();
    await expect(mine).toHaveCount(30);
    await older.click();
    await expect(mine).toHaveCount(31);

    const schedule = page.getByTestId("report-schedules").locator(`tr[data-schedule="${name}"]`);
    page.once("dialog", (d) => void d.accept());
    await schedule.getByRole("button", { name: "Disable" }).click();
    await expect(schedule).toContainText("Disabled");
  });
});
