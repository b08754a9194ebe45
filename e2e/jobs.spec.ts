import { expect, test } from "./fixtures";
import { describeAs, openPage } from "./helpers";

/** Admin → Jobs: the job system's queues and runs; "Run now" sends a job that a worker completes. */
describeAs("Admin → Jobs", "admin", () => {
  test("lists the sweep, reconciliation and approval expiry queues; Run now on the reconciliation shows a completed run", async ({
    page,
  }) => {
    await openPage(page, "/admin/jobs", "Background jobs");
    const queues = page.getByTestId("job-queues");
    for (const name of ["activities-sweep", "reconcile", "approvals-expiry"])
      await expect(queues.locator(`tr[data-queue="${name}"]`)).toBeVisible();
    await expect(queues.locator('tr[data-queue="approvals-expiry"]')).toContainText("* * * * *");

    const runs = page.getByTestId("job-runs");
    const reconciles = runs.locator('tr[data-job="reconcile"]');
    const before = new Set(await reconciles.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id"))));
    await queues.getByRole("button", { name: "Run Reconciliation now" }).click();
    const notice = page.getByText(/Reconciliation: (sent|one is already waiting)/);
    await expect(notice).toBeVisible();
    const sent = (await notice.textContent())!.includes("sent");
    // The page refetches while open: a run it did not list before appears and completes (the one asked for, or the
    // one already waiting that answers the request).
    const fresh = async () =>
      reconciles.evaluateAll(
        (rows, seen) =>
          rows
            .filter((r) => !seen.includes(r.getAttribute("data-id")) && r.getAttribute("data-state") === "completed")
            .map((r) => r.textContent ?? ""),
        [...before],
      );
    const answered = async () => (await fresh()).filter((text) => !sent || text.includes("admin@brokerdesk.test")).length;
    await expect.poll(answered, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: "test-results/jobs-1280.png", fullPage: true });
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.screenshot({ path: "test-results/jobs-1920.png", fullPage: true });

    await page.goto("/audit?action=jobs.run");
    await expect(page.getByTestId("audit-row").first()).toContainText("success");
  });
});

describeAs("Jobs as operations", "operations", () => {
  test("is refused", async ({ page }) => {
    const res = await page.goto("/admin/jobs");
    expect(res?.status()).toBe(403);
    expect((await page.request.get("/api/jobs")).status()).toBe(403);
  });
});
