import { expect, test, type Request } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { disableAllRules, holdCashJournalsAbove, JOURNAL_TARGET, sendCashJournal } from "./approvals-helpers";
import { holdNavigation, shots, storageFor } from "./helpers";

/**
 * Four-eyes approval end to end (issue 12): with the rule "cash journal USD above 10,000 needs 1 approver", an
 * operator's USD 5,000 journal executes at once and completes; USD 50,000 waits; its maker has no approve control
 * and a replayed approve action is refused; an administrator approves, it is sent once, and both balances move by
 * the amount; the maker's open page follows without a reload. The movement's page shows the approval trail.
 */

const TARGET = JOURNAL_TARGET;
const CREATE_JOURNAL = "POST /broker/journals/cash-journals/create";

const sandbox = sandboxCall;

function accountIdOf(number: string): { id: string; master: string } {
  const res = sandbox("GET", "/broker/accounts/virtual-accounts/list", { query: { account_number: number, page_size: "5" } });
  expect(res.status).toBe(200);
  return { id: res.body.data[0].account_id, master: res.body.data[0].belong_account_id };
}

function usdCash(accountId: string): number {
  const res = sandbox("GET", "/broker/assets/balances/get", { query: { account_id: accountId } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON, read loosely
  return Number(res.body.account_currency_assets.find((a: any) => a.currency === "USD").cash_balance);
}

const journalsSent = (): number => sandbox("GET", "/sandbox/calls").body.data[CREATE_JOURNAL] ?? 0;

/** The approve action's request as the browser sent it: its URL, headers and body, to send again. */
interface Captured {
  url: string;
  headers: Record<string, string>;
  body: string;
}
const capture = (r: Request): Captured => {
  const { cookie: _cookie, ...headers } = r.headers();
  return { url: r.url(), headers, body: r.postData() ?? "" };
};

test("a cash journal above the rule's threshold waits for a second person, and is sent once when approved", async ({
  browser,
  playwright,
  baseURL,
}) => {
  const admin = await browser.newPage({ storageState: storageFor("admin") });
  const ops = await browser.newPage({ storageState: storageFor("operations") });
  const target = accountIdOf(TARGET);

  try {
    // The rule, made on the rules page.
    await holdCashJournalsAbove(admin, "10000");
    await expect(admin.getByText("Rule created.")).toBeVisible();

    // Below the threshold: sent at once, and it completes.
    await sendCashJournal(ops, "5000.00");
    await expect(ops.getByTestId("movement-status")).toHaveText(/Completed/i);

    // Above it: held, nothing sent.
    const sentBefore = journalsSent();
    const [masterBefore, targetBefore] = [usdCash(target.master), usdCash(target.id)];
    await sendCashJournal(ops, "50000.00");
    await expect(ops.getByText("Sent for approval", { exact: true })).toBeVisible();
    const link = ops.getByRole("link", { name: "Open the approval request" });
    const approvalPath = (await link.getAttribute("href"))!;
    expect(journalsSent()).toBe(sentBefore);

    // The maker sees the request, and no control to approve it.
    await link.click();
    await expect(ops.getByTestId("approval-summary")).toContainText("50,000.00 USD");
    await expect(ops.getByRole("button", { name: "Approve" })).toHaveCount(0);
    // "Will be sent as" names both accounts by number, linked; no hex id in the page's text.
    const payload = ops.getByTestId("approval-payload");
    await expect(payload.getByRole("link", { name: TARGET })).toHaveAttribute("href", `/accounts/${target.id}`);
    expect(await ops.getByRole("main").innerText()).not.toMatch(/\b[0-9a-f]{32}\b/);

    // The approver's click, held back at the network, is the action a replay sends.
    await admin.goto(approvalPath);
    await expect(admin.getByTestId("approval-count")).toHaveText("0 of 1");
    let approveCall: Captured | undefined;
    await admin.route(`**${approvalPath}`, async (route) => {
      if (route.request().method() === "POST" && route.request().headers()["next-action"]) {
        approveCall = capture(route.request());
        await route.abort();
      } else await route.continue();
    });
    admin.once("dialog", (d) => void d.accept());
    await admin.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => approveCall).toBeDefined();
    await admin.unroute(`**${approvalPath}`);

    // Replayed with the maker's session: refused on the server, nothing sent.
    const asMaker = await playwright.request.newContext({ baseURL, storageState: storageFor("operations") });
    const replay = await asMaker.post(approveCall!.url, { headers: approveCall!.headers, data: approveCall!.body });
    expect(await replay.text()).toContain("OWN_REQUEST");
    await asMaker.dispose();
    expect(journalsSent()).toBe(sentBefore);

    // The administrator approves: sent once; both balances move by the amount.
    await admin.reload();
    admin.once("dialog", (d) => void d.accept());
    await admin.getByRole("button", { name: "Approve" }).click();
    await expect(admin.getByTestId("approval-result")).toContainText("Executed");
    // The maker's page, open all along, follows without a reload (the live channel's "approval" notice).
    await expect(ops.getByTestId("approval-count")).toHaveText("1 of 1");
    await expect(ops.getByTestId("approval-result")).toContainText("Executed");
    expect(journalsSent()).toBe(sentBefore + 1);
    expect(usdCash(target.master)).toBeCloseTo(masterBefore - 50_000, 2);
    expect(usdCash(target.id)).toBeCloseTo(targetBefore + 50_000, 2);

    // Replayed once more, now with the approver's own session: the request is closed; still one journal.
    const asAdmin = await playwright.request.newContext({ baseURL, storageState: storageFor("admin") });
    const again = await asAdmin.post(approveCall!.url, { headers: approveCall!.headers, data: approveCall!.body });
    expect(await again.text()).toMatch(/APPROVAL_CLOSED|ALREADY_DECIDED/);
    await asAdmin.dispose();
    expect(journalsSent()).toBe(sentBefore + 1);

    // The movement completes (by the event stream) and its page shows who asked and who approved.
    await admin.getByRole("link", { name: /^Movement / }).click();
    await expect(admin.getByTestId("movement-status")).toContainText("Completed");
    const trail = admin.getByTestId("approval-trail");
    await expect(trail).toContainText("ops@brokerdesk.test");
    await expect(trail.getByTestId("approval-decisions")).toContainText("admin@brokerdesk.test");
    for (const width of [1280, 1920]) {
      await admin.setViewportSize({ width, height: 900 });
      await admin.screenshot({ path: `test-results/four-eyes/movement-with-trail-${width}.png`, fullPage: true });
    }
  } finally {
    await disableAllRules(admin);
    await admin.close();
    await ops.close();
  }
});

const UPDATE_ACCOUNT = "POST /broker/accounts/virtual-accounts/update";
const updatesSent = (): number => sandbox("GET", "/sandbox/calls").body.data[UPDATE_ACCOUNT] ?? 0;

test("an account update waiting for approval is refused, nothing sent, when the account changed meanwhile", async ({ browser }) => {
  const admin = await browser.newPage({ storageState: storageFor("admin") });
  const ops = await browser.newPage({ storageState: storageFor("operations") });
  const { id: account } = accountIdOf("VBD1000020");
  const read = () => sandbox("GET", "/broker/accounts/virtual-accounts/get", { query: { account_id: account } }).body;

  try {
    await disableAllRules(admin);
    const form = admin.getByRole("form", { name: "New rule" });
    await form.getByLabel("Action").selectOption({ label: "W-8BEN change" });
    await form.getByLabel("Approvers needed").selectOption("1");
    await form.getByLabel("Administrator").check();
    await form.getByRole("button", { name: "Create rule" }).click();
    await expect(admin.getByText("Rule created.")).toBeVisible();

    // Operations changes the tax id: held, and the form opens the request.
    const taxBefore: string = read().w8ben_info.tax_id;
    await ops.goto(`/accounts/${account}/edit`);
    await ops.getByLabel("Tax id").fill("GB987654321");
    await ops.getByRole("button", { name: "Review changes" }).click();
    await ops.getByRole("button", { name: "Confirm update" }).click();
    await expect(ops).toHaveURL(/\/approvals\/[0-9a-f-]+$/);
    const approvalPath = new URL(ops.url()).pathname;
    await expect(ops.getByTestId("approval-summary")).toContainText("W-8BEN");

    // Meanwhile another commission group is set (no rule holds that): it goes through.
    await ops.goto(`/accounts/${account}/edit`);
    const commission = ops.getByLabel("Commission");
    const interim = (await commission.inputValue()) === "COMMISSION_GROUP_2" ? "COMMISSION_GROUP_3" : "COMMISSION_GROUP_2";
    await commission.selectOption(interim);
    await ops.getByRole("button", { name: "Review changes" }).click();
    await ops.getByRole("button", { name: "Confirm update" }).click();
    await expect(ops.getByText("The account was updated.")).toBeVisible();
    expect(read().commission_code).toBe(interim);

    // The administrator approves the W-8BEN change: refused with the reason, nothing sent, the interim change kept.
    const sent = updatesSent();
    await admin.goto(approvalPath);
    admin.once("dialog", (d) => void d.accept());
    await admin.getByRole("button", { name: "Approve" }).click();
    const result = admin.getByTestId("approval-result");
    await expect(result).toContainText("The account changed after this update was requested (commission code). Nothing was sent");
    // No upstream request id: the check's read is not the request.
    await expect(result.getByText("Upstream request id").locator("xpath=following-sibling::*[1]")).toHaveText("—");
    expect(updatesSent()).toBe(sent);
    expect(read()).toMatchObject({ commission_code: interim, w8ben_info: expect.objectContaining({ tax_id: taxBefore }) });
    await shots(admin, "four-eyes", "stale-account-update");
  } finally {
    await disableAllRules(admin);
    await admin.close();
    await ops.close();
  }
});

test("a request's page that arrives after a decision was announced shows the decision", async ({ browser }) => {
  const admin = await browser.newPage({ storageState: storageFor("admin") });
  const ops = await browser.newPage({ storageState: storageFor("operations") });
  try {
    await holdCashJournalsAbove(admin, "10000");
    await expect(admin.getByText("Rule created.")).toBeVisible();
    await sendCashJournal(ops, "20000.00");
    const link = ops.getByRole("link", { name: "Open the approval request" });
    const approvalPath = (await link.getAttribute("href"))!;
    await expect(ops.getByTestId("live-indicator")).toHaveText("Live");
    await admin.goto(approvalPath);
    await expect(admin.getByTestId("approval-count")).toHaveText("0 of 1");

    // The maker opens the request; its page, read on the server, is held on its way until the approval is announced.
    const { arrived } = await holdNavigation(ops, approvalPath, async () => {
      admin.once("dialog", (d) => void d.accept());
      await admin.getByRole("button", { name: "Approve" }).click();
      await expect(admin.getByTestId("approval-result")).toContainText("Executed");
    });
    await link.click();
    await arrived;
    // It reads itself again as it arrives: the decision, not the older read.
    await expect(ops.getByTestId("approval-count")).toHaveText("1 of 1");
    await expect(ops.getByTestId("approval-result")).toContainText("Executed");
  } finally {
    await disableAllRules(admin);
    await admin.close();
    await ops.close();
  }
});
