import { expect, test, type Page } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { shots, storageFor } from "./helpers";

/**
 * The status page against the e2e sandbox. The webServer evaluates every 2 s over a 20 s window (playwright.config.ts):
 * an idle module is probed every 5 s and changes after two evaluations in a row, so a module's outage, and its
 * recovery, show within about 10 s on a quiet machine. 30 s are allowed here: evaluations start 2 s after the last one
 * ended, on a machine the other shard shares, and a recovery waits for the failures to leave the recent window.
 */
const DETECTION_MS = 30_000;
const setOrder = (state: "outage" | "normal") =>
  expect(sandboxCall("POST", "/sandbox/modules/order", { body: { state } }).status).toBe(200);

test.describe("upstream status", () => {
  test.use({ storageState: storageFor("support") });
  test.afterEach(() => {
    sandboxCall("POST", "/sandbox/modules/order", { body: { state: "normal" } });
  });

  test("the Order module in outage shows as the only outage within seconds, with its incident, and recovers", async ({ page }) => {
    await page.goto("/status");
    await expect(page.getByRole("heading", { name: "Upstream status" })).toBeVisible();
    const order = page.getByTestId("status-module-order");
    const outages = page.locator('[data-testid^="status-module-"][data-state="outage"]');
    await expect(order).toHaveAttribute("data-state", "operational", { timeout: DETECTION_MS });
    await expect(outages).toHaveCount(0);
    await expect(order.getByTestId("uptime-bar")).toHaveCount(90);

    setOrder("outage");
    let since = Date.now();
    await expect(order).toHaveAttribute("data-state", "outage", { timeout: DETECTION_MS });
    test.info().annotations.push({ type: "outage shown after", description: `${Date.now() - since} ms` });
    await expect(outages).toHaveCount(1);
    // The state's badge (the first "Outage" of the row; the incident below names its state too).
    await expect(order.getByText("Outage", { exact: true }).first()).toBeVisible();
    await expect(order.getByTestId("incident").first()).toContainText("ongoing");
    // The evidence: the open-orders sweep's failing calls, or a probe's when nobody called the module lately.
    await expect(order.getByTestId("incident").first()).toContainText(/the probe failed|\d+ of \d+ calls failed/);
    await expect(page.getByTestId("status-summary")).toContainText("1 module in outage");
    await shots(page, "status", "order-outage");

    setOrder("normal");
    since = Date.now();
    await expect(order).toHaveAttribute("data-state", "operational", { timeout: DETECTION_MS });
    test.info().annotations.push({ type: "recovery shown after", description: `${Date.now() - since} ms` });
    console.log(
      test
        .info()
        .annotations.map((a) => `${a.type} ${a.description}`)
        .join("; "),
    );
    await expect(order.getByTestId("incident").first()).not.toContainText("ongoing");
    await expect(order.getByTestId("incident").first()).toContainText(/back: (the probe answered|\d+ of \d+ calls failed)/);
    await expect(outages).toHaveCount(0);
    await shots(page, "status", "order-recovered");
  });
});

/** The mails the embedded SMTP server received for an address (Admin → Mail), newest first. */
async function mailsTo(admin: Page, email: string): Promise<{ subject: string; href: string }[]> {
  await admin.goto("/admin/mail");
  // The list streams in after the page's frame (its loading state first): read its rows once it is there. Read at
  // the load event, the clean CI run of efe3402 found none of the three mails it had just seen.
  await expect(admin.getByRole("table", { name: "Received mails" })).toBeVisible();
  return admin
    .getByRole("row")
    .filter({ hasText: email })
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => ({ subject: a.textContent ?? "", href: a.getAttribute("href") ?? "" })));
}

async function mailBody(admin: Page, href: string): Promise<string> {
  await admin.goto(href);
  return (await admin.getByTestId("mail-body").textContent()) ?? "";
}

/** POSTs a mail's link (`/status/…?token=`) the way its page's button or a one-click client does: no session. */
const followLink = (url: string, baseURL: string) => {
  const link = new URL(url);
  return fetch(new URL(`/api${link.pathname}${link.search}`, baseURL), { method: "POST" });
};

test.describe("status mail on an outage", () => {
  test.use({ storageState: storageFor("admin") });
  test.afterEach(() => {
    sandboxCall("POST", "/sandbox/modules/order", { body: { state: "normal" } });
  });

  test("an Order outage mails its confirmed subscriber once when it starts and once when it ends; Funding's and an unconfirmed address get none", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(360_000);
    const stamp = Date.now().toString(36);
    const order = `order-${stamp}@example.test`;
    const funding = `funding-${stamp}@example.test`;
    const unconfirmed = `unconfirmed-${stamp}@example.test`;
    for (const [email, modules] of [
      [order, ["order"]],
      [funding, ["funding"]],
      [unconfirmed, ["order"]],
    ] as const) {
      expect((await page.request.post("/api/status/subscribe", { data: { email, modules } })).status()).toBe(202);
    }
    const waitForMails = async (email: string, count: number) => {
      let mails: { subject: string; href: string }[] = [];
      await expect
        .poll(async () => (mails = await mailsTo(page, email)).length, { timeout: DETECTION_MS + 30_000, intervals: [1_000] })
        .toBe(count);
      return mails;
    };
    for (const email of [order, funding]) {
      const [confirmation] = await waitForMails(email, 1);
      const link = /(\S+\/status\/confirm\?token=\S+)/.exec(await mailBody(page, confirmation.href))![1];
      expect(await (await followLink(link, baseURL!)).text()).toBe("Subscription confirmed.");
    }

    // The outage: after the debounce (STATUS_MAIL_DEBOUNCE_MS in playwright.config.ts) one mail to the Order subscriber.
    setOrder("outage");
    const [opened] = await waitForMails(order, 2);
    expect(opened.subject).toMatch(/^\[Brokerdesk status\] Order: outage since \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    const text = await mailBody(page, opened.href);
    expect(text).toContain("Module: Order");
    expect(text).toContain("State: outage");
    expect(text).toMatch(/Started: \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    const unsubscribe = /Unsubscribe: (\S+)/.exec(text)![1];

    // Recovery: one "resolved" mail; nothing more.
    setOrder("normal");
    const [resolved] = await waitForMails(order, 3);
    expect(resolved.subject).toBe("[Brokerdesk status] Order: resolved");
    expect(await mailBody(page, resolved.href)).toContain("State: operational (was outage)");
    // Another outbox pass or two change nothing.
    await page.waitForTimeout(5_000);
    expect(await mailsTo(page, order)).toHaveLength(3);
    // Funding's subscriber hears nothing of Order (a Funding incident of its own would be theirs to hear of).
    expect((await mailsTo(page, funding)).filter((m) => !m.subject.includes("Funding")).map((m) => m.subject)).toEqual([
      "Confirm your Brokerdesk status subscription",
    ]);
    expect((await mailsTo(page, unconfirmed)).map((m) => m.subject)).toEqual(["Confirm your Brokerdesk status subscription"]);

    // The outage mail's link unsubscribes, without a session.
    expect(await (await followLink(unsubscribe, baseURL!)).text()).toBe("Unsubscribed.");
  });
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("without STATUS_PUBLIC the page and its data ask for sign-in", async ({ page }) => {
    await page.goto("/status");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fstatus/);
    expect((await page.request.get("/api/status", { maxRedirects: 0 })).status()).not.toBe(200);
  });
});
