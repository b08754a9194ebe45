import { expect, test } from "./fixtures";
import { describeAs } from "./helpers";

/**
 * Status mail on the started app: a subscribe request (the route the status page's form posts to), its confirmation
 * mail read on Admin → Mail (the embedded SMTP server: no SMTP_URL), the link followed without a session and
 * confirmed, then the mail's unsubscribe link.
 */
describeAs("Status mail", "admin", () => {
  test("a subscription's confirmation mail arrives on Admin → Mail; its links confirm and unsubscribe without a session", async ({
    page,
    browser,
  }) => {
    const email = `e2e-${Date.now()}@example.test`;
    const answer = await page.request.post("/api/status/subscribe", { data: { email, modules: ["order", "funding"] } });
    expect(answer.status()).toBe(202);

    await page.goto("/admin/mail");
    await expect(page.getByRole("heading", { name: "Mail", exact: true })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: email });
    // The outbox runs a pass every 2 s: the mail is there within seconds.
    await expect(async () => {
      await page.reload();
      await expect(row).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await row.getByRole("link", { name: "Confirm your Brokerdesk status subscription" }).click();
    const body = page.getByTestId("mail-body");
    await expect(body).toContainText("Order, Funding");
    await page.getByText("Headers").click();
    await expect(page.getByTestId("mail-headers")).toContainText("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    await page.screenshot({ path: "test-results/status-mail-1280.png", fullPage: true });
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.screenshot({ path: "test-results/status-mail-1920.png", fullPage: true });

    const text = (await body.textContent()) ?? "";
    const confirm = new URL(/(\S+\/status\/confirm\?token=\S+)/.exec(text)![1]!);
    const unsubscribe = new URL(/Unsubscribe: (\S+)/.exec(text)![1]!);

    // The recipient: no session.
    const outsider = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const visitor = await outsider.newPage();
    await visitor.goto(`${confirm.pathname}${confirm.search}`);
    await expect(visitor.getByRole("heading", { name: "Confirm your status subscription" })).toBeVisible();
    await visitor.screenshot({ path: "test-results/status-confirm-1280.png" });
    await visitor.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(visitor.getByText("Subscription confirmed.")).toBeVisible();

    await visitor.goto(`${unsubscribe.pathname}${unsubscribe.search}`);
    await visitor.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(visitor.getByText("Unsubscribed. This address receives no more status mails.")).toBeVisible();

    await visitor.goto(`${confirm.pathname}${confirm.search.slice(0, -3)}xyz`);
    await expect(visitor.getByText("This link is not valid or has expired.")).toBeVisible();
    await outsider.close();
  });
});

describeAs("Admin → Mail as operations", "operations", () => {
  test("is refused", async ({ page }) => {
    const res = await page.goto("/admin/mail");
    expect(res?.status()).toBe(403);
  });
});
