import { expect, test, type Page, type Request } from "@playwright/test";
import { sandboxApi } from "./accounts-helpers";
import { disableAllRules } from "./approvals-helpers";
import { storageFor } from "./helpers";

/**
 * Four-eyes approval end to end (issue 12): with the rule "cash journal USD above 10,000 needs 1 approver", an
 * operator's USD 5,000 journal executes at once and completes; USD 50,000 waits; its maker has no approve control
 * and a replayed approve action is refused; an administrator approves, it is sent once, and both balances move by
 * the amount. The movement's page shows the approval trail.
 */

const MASTER_NUMBER = "FV000123";
const TARGET = "VBD1000005";
const CREATE_JOURNAL = "POST /broker/journals/cash-journals/create";

const sandbox = sandboxApi;

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

async function sendCashJournal(page: Page, amount: string) {
  await page.goto("/movements/new/cash-journal");
  await page.getByLabel("From account", { exact: true }).fill("master");
  await page.getByRole("list", { name: "Accounts for from account" }).getByRole("button", { name: new RegExp(MASTER_NUMBER) }).click();
  await page.getByLabel("To account", { exact: true }).fill(TARGET);
  await page.getByRole("list", { name: "Accounts for to account" }).getByRole("button", { name: new RegExp(TARGET) }).click();
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByRole("button", { name: "Review", exact: true }).click();
  await page.getByRole("button", { name: /Send cash journal/ }).click();
  await expect(page.getByTestId("movement-outcome")).toBeVisible();
}

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

test("a cash journal above the rule's threshold waits for a second person, and is sent once when approved", async ({ browser, playwright, baseURL }) => {
  const admin = await browser.newPage({ storageState: storageFor("admin") });
  const ops = await browser.newPage({ storageState: storageFor("operations") });
  const target = accountIdOf(TARGET);

  try {
    // The rule, made on the rules page.
    await disableAllRules(admin);
    const form = admin.getByRole("form", { name: "New rule" });
    await form.getByLabel("Action").selectOption({ label: "Cash journal" });
    await form.getByLabel("Currency").selectOption("USD");
    await form.getByLabel("Above amount").fill("10000");
    await form.getByLabel("Approvers needed").selectOption("1");
    await form.getByLabel("Administrator").check();
    await form.getByRole("button", { name: "Create rule" }).click();
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
