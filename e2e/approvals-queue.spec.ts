import { expect, test, type Browser, type Page } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { disableAllRules, holdCashJournalsAbove, JOURNAL_TARGET, sendCashJournal } from "./approvals-helpers";
import { DEMO_PASSWORD, expectSignedIn, filterBarReady, shots, signIn, storageFor } from "./helpers";

/**
 * The approvals queue around the desk (issue 25, item 3): the menu's count of what waits for one's decision and the
 * inbox follow a held journal live; several requests approved in one go are each sent once, and the approver's own
 * is refused in words; a held journal's account and movement say "Pending approval" until it is decided; its maker
 * is told of the decision in the header. Each test makes its own rule (cash journals in USD above 1, one approver:
 * an operator or an administrator) and its own journals (amounts of this spec: 9.11 … 9.41 USD); the rule is
 * disabled after.
 */

const CREATE_JOURNAL = "POST /broker/journals/cash-journals/create";
const journalsSent = (): number => sandboxCall("GET", "/sandbox/calls").body.data[CREATE_JOURNAL] ?? 0;

/** The menu's count of approvals waiting for this page's user (0 when no badge shows). */
async function waitingBadge(page: Page): Promise<number> {
  const badge = page.getByTestId("nav-badge-approvals");
  return (await badge.count()) ? Number(await badge.getAttribute("data-count")) : 0;
}

async function holdingRule(browser: Browser) {
  const admin = await browser.newPage({ storageState: storageFor("admin") });
  await holdCashJournalsAbove(admin, "1");
  await expect(admin.getByText("Rule created.")).toBeVisible();
  return admin;
}

/** The rule, and a journal of `amount` held for the operator: an administrator's page, the operator's, the request's path. */
async function heldJournal(browser: Browser, amount: string) {
  const admin = await holdingRule(browser);
  const ops = await browser.newPage({ storageState: storageFor("operations") });
  await sendCashJournal(ops, amount);
  const approvalPath = (await ops.getByRole("link", { name: "Open the approval request" }).getAttribute("href"))!;
  return { admin, ops, approvalPath };
}

/** The header's notice of decided requests, emptied: earlier specs' decisions on this user's requests marked seen. */
async function clearDecisionNotices(page: Page) {
  const notices = page.getByTestId("decision-notices");
  while (await notices.isVisible()) {
    await notices.click();
    await expect(page.getByTestId("decision-notice-list")).toBeVisible();
    await page.keyboard.press("Escape");
    await page.reload();
  }
}

const accountIdOf = (number: string): string =>
  sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { account_number: number, page_size: "5" } }).body.data[0]
    .account_id;

test.afterAll(async ({ browser }) => {
  const admin = await browser.newPage({ storageState: storageFor("admin") });
  await disableAllRules(admin);
  await admin.close();
});

test("a held journal appears in an open inbox without a reload, and the menu's count goes up and down with it", async ({ browser }) => {
  const admin = await holdingRule(browser);
  const ops = await browser.newPage({ storageState: storageFor("operations") });
  await admin.goto("/approvals?status=pending");
  await expect(admin.getByRole("heading", { name: "Approvals" })).toBeVisible();
  await expect(admin.getByTestId("live-indicator")).toHaveText("Live");
  const before = await waitingBadge(admin);

  // Held in another browser: the open inbox and the menu's count follow.
  await sendCashJournal(ops, "9.11");
  await expect(ops.getByText("Sent for approval", { exact: true })).toBeVisible();
  const row = admin.getByTestId("approval-row").filter({ hasText: "9.11 USD" });
  await expect(row).toHaveCount(1);
  // The requests name their accounts by number (the demo's first morning held two before anyone acted): no upstream id.
  expect(await admin.getByRole("main").innerText()).not.toMatch(/\b[0-9a-f]{32}\b/);
  await expect(admin.getByTestId("nav-badge-approvals")).toHaveAttribute("data-count", String(before + 1));
  // The link keeps the page's name; the count describes it.
  const link = admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals", exact: true });
  await expect(link).toHaveAccessibleDescription(`${before + 1} waiting for your decision`);
  await shots(admin, "approvals-queue", "inbox-with-badge");

  // The maker withdraws it: the count goes down and the row leaves the pending view, still without a reload.
  await ops.getByRole("link", { name: "Open the approval request" }).click();
  ops.once("dialog", (d) => void d.accept());
  await ops.getByRole("button", { name: "Withdraw" }).click();
  await expect(row).toHaveCount(0);
  await expect.poll(() => waitingBadge(admin)).toBe(before);

  // A role that reads neither page has no count.
  const support = await browser.newPage({ storageState: storageFor("support") });
  await support.goto("/");
  await expect(support.getByTestId("current-role")).toBeVisible();
  await expect(support.locator("[data-testid^=nav-badge-]")).toHaveCount(0);
  await support.close();
  await ops.close();
  await admin.close();
});

test("two requests approved in one go are sent once each; the approver's own is refused in words", async ({ browser }) => {
  const admin = await holdingRule(browser);
  await admin.close();
  const ops = await browser.newPage({ storageState: storageFor("operations") });
  await sendCashJournal(ops, "9.21");
  await sendCashJournal(ops, "9.22");
  await ops.close();
  // The second operator makes one too, then decides all three.
  const context = await browser.newContext();
  const ops2 = await context.newPage();
  await signIn(ops2, "ops2@brokerdesk.test", DEMO_PASSWORD);
  await expectSignedIn(ops2, "ops2@brokerdesk.test");
  await sendCashJournal(ops2, "9.23");
  await expect(ops2.getByText("Sent for approval", { exact: true })).toBeVisible();

  await ops2.goto("/approvals?status=pending");
  await filterBarReady(ops2);
  // Every pending request of the page at once, and none again.
  const all = ops2.getByRole("checkbox", { name: "Select every pending request on this page" });
  const rows = await ops2.getByTestId("approval-row").count();
  await all.check();
  await expect(ops2.getByTestId("bulk-selected")).toHaveText(rows === 1 ? "1 request selected" : `${rows} requests selected`);
  await all.uncheck();
  await expect(ops2.getByTestId("bulk-selected")).toHaveCount(0);

  // The three of this test: two with the mouse, one from the keyboard.
  const box = (amount: string) =>
    ops2.getByRole("checkbox", { name: new RegExp(`^Select Cash journal of ${amount.replace(".", "\\.")} USD`) });
  await box("9.21").check();
  await box("9.22").check();
  await box("9.23").focus();
  await ops2.keyboard.press("Space");
  await expect(box("9.23")).toBeChecked();
  await expect(ops2.getByTestId("bulk-selected")).toHaveText("3 requests selected");
  await shots(ops2, "approvals-queue", "inbox-selected");

  const sentBefore = journalsSent();
  ops2.once("dialog", (d) => {
    expect(d.message()).toContain("Approve 3 requests?");
    expect(d.message()).toContain("9.23 USD");
    void d.accept();
  });
  await ops2.getByRole("button", { name: "Approve 3" }).click();
  const result = (amount: string) => ops2.getByTestId("bulk-result").filter({ hasText: `${amount} USD` });
  await expect(result("9.21")).toContainText("Approved and sent");
  await expect(result("9.22")).toContainText("Approved and sent");
  await expect(result("9.23")).toContainText("Not yours to approve: you made this request");
  await expect(result("9.23")).toHaveAttribute("data-outcome", "refused");
  expect(journalsSent()).toBe(sentBefore + 2);
  await expect(ops2.getByTestId("approval-row").filter({ hasText: "9.23 USD" })).toContainText("Pending");
  await shots(ops2, "approvals-queue", "inbox-results");

  // Rejecting asks for one reason; the own request is refused again, nothing is sent.
  await box("9.23").check();
  await ops2.getByRole("button", { name: "Reject 1…" }).click();
  const reject = ops2.getByRole("form", { name: "Reject the selected requests" });
  await reject.getByRole("button", { name: "Reject 1 request" }).click();
  await expect(reject.getByText("Give a reason")).toBeVisible();
  await reject.getByLabel(/Reason for rejecting/).fill("Duplicate of another journal");
  ops2.once("dialog", (d) => void d.accept());
  await reject.getByRole("button", { name: "Reject 1 request" }).click();
  await expect(result("9.23")).toContainText("Not yours to reject: you made this request");
  expect(journalsSent()).toBe(sentBefore + 2);

  // Nothing of this test is left waiting: its maker withdraws the last one.
  await result("9.23").getByRole("link").click();
  ops2.once("dialog", (d) => void d.accept());
  await ops2.getByRole("button", { name: "Withdraw" }).click();
  await expect(ops2.getByTestId("approval-decide")).toHaveCount(0);
  await context.close();
});

test("a held journal's account and movement say Pending approval until it is decided", async ({ browser }) => {
  const { admin, ops, approvalPath } = await heldJournal(browser, "9.31");

  // The receiving account's page (not the request's audit target, which is the master account).
  await ops.goto(`/accounts/${accountIdOf(JOURNAL_TARGET)}`);
  const marker = ops.getByTestId("pending-approval-request").filter({ hasText: "9.31 USD" });
  await expect(marker).toContainText("Pending approval");
  await expect(marker.getByRole("link", { name: "Open the request" })).toHaveAttribute("href", approvalPath);
  await shots(ops, "approvals-queue", "account-pending");

  // The movement's page, found by the request's client request id.
  await admin.goto(approvalPath);
  const payload = admin.getByTestId("approval-payload");
  const crid = (await payload.locator("dt", { hasText: "Client request id" }).locator("xpath=following-sibling::dd[1]").textContent())!;
  await admin.goto(`/movements/CASH_JOURNAL/${crid}`);
  await expect(admin.getByTestId("pending-approval-request")).toContainText("9.31 USD");
  await shots(admin, "approvals-queue", "movement-pending");

  // Rejected by the administrator: the account page, open all along, drops the marker.
  await admin.goto(approvalPath);
  await admin.getByRole("button", { name: "Reject…" }).click();
  // The button goes; the reason takes the focus.
  await expect(admin.getByLabel("Reason for rejecting")).toBeFocused();
  await admin.keyboard.type("Wrong amount");
  admin.once("dialog", (d) => void d.accept());
  await admin.getByRole("button", { name: "Reject request" }).click();
  // Decided: the page drops its controls (and their banner) and lists the rejection.
  await expect(admin.getByText("Reason: Wrong amount")).toBeVisible();
  await expect(marker).toHaveCount(0);
  await ops.close();
  await admin.close();
});

test("the maker is told of the decision in the header, live, and it is marked seen once opened", async ({ browser }) => {
  const { admin, ops, approvalPath } = await heldJournal(browser, "9.41");
  await ops.goto("/movements");
  await clearDecisionNotices(ops);
  await expect(ops.getByTestId("live-indicator")).toHaveText("Live");

  await admin.goto(approvalPath);
  admin.once("dialog", (d) => void d.accept());
  await admin.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByTestId("approval-result")).toContainText("Executed");

  // The maker's page, open all along: the notice appears; opening it lists the decision with its link.
  const notices = ops.getByTestId("decision-notices");
  await expect(notices).toContainText("1 decided");
  await notices.click();
  const notice = ops.getByTestId("decision-notice").filter({ hasText: "9.41 USD" });
  await expect(notice).toContainText("Approved by admin@brokerdesk.test and sent");
  await shots(ops, "approvals-queue", "maker-notice");
  // Marked seen on opening: the count leaves the button while the list stays open.
  await expect(notices).not.toContainText("decided");
  await notice.getByRole("link").click();
  await expect(ops).toHaveURL(new RegExp(`${approvalPath}$`));
  // Seen: after a reload nothing new is announced.
  await ops.reload();
  await expect(ops.getByTestId("approval-summary")).toContainText("9.41 USD");
  await expect(notices).toHaveCount(0);
  await ops.close();
  await admin.close();
});
