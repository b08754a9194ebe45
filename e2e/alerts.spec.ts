import { expect, test, type Page } from "./fixtures";
import { sandboxCall, sandboxCalls } from "./accounts-helpers";
import { describeAs, openPage, shots as shotsIn } from "./helpers";
import { listingChecks, untilDeskHolds } from "./listing-checks";

/**
 * Surveillance alerts end to end: a large deposit made at the sandbox reaches the desk through the event stream, the
 * "deposit above USD 50,000" rule raises an alert that appears in the open queue without a reload, and a compliance
 * reviewer clears it with a note that the audit trail shows. Support has no access.
 */
const run = Date.now().toString(36);
const crid = `e2edep${run}`;
// A unique amount, so the row is this run's whatever ran before.
const whole = 60_000 + (Date.now() % 10_000);
const amount = `${whole}.25`;
const shown = `${whole.toLocaleString("en-US")}.25`;
const note = `Checked the source of funds for ${crid}: salary and bonus.`;
let account = "";
let accountNumber = "";

const call = sandboxCall;

const shots = (page: Page, name: string) => shotsIn(page, "alerts", name);

test.describe("Surveillance alerts", () => {
  test.beforeAll(() => {
    const res = call("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const active = res.body.data.find((x: { account_status?: string }) => x.account_status === "ACTIVE");
    account = active.account_id;
    accountNumber = active.account_number;
  });

  describeAs("as compliance", "compliance", () => {
    test("a large deposit at the sandbox raises an alert live; the reviewer clears it with a note that the audit trail shows", async ({
      page,
    }) => {
      await openPage(page, "/alerts?status=open", "Alerts");
      await expect(page.getByTestId("live-indicator")).toHaveText("Live");
      const row = page.getByTestId("alert-row").filter({ hasText: accountNumber }).filter({ hasText: shown });
      await expect(row).toHaveCount(0);

      const res = call("POST", "/broker/funding/instant-funding/create", {
        body: { account_id: account, type: "DEPOSIT", client_request_id: crid, amount, currency: "USD" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      // No reload: the alert notice refetches the queue.
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(`Deposit of USD ${shown} (above 50,000.00)`);
      await expect(row).toContainText("Open");
      // The account by its number, linked; its hex id is nowhere in the queue's text.
      await expect(row.getByRole("link", { name: accountNumber })).toHaveAttribute("href", `/accounts/${account}`);
      expect(await row.innerText()).not.toMatch(/\b[0-9a-f]{32}\b/);
      await shots(page, "queue");

      await row.getByTestId("alert-link").click();
      await expect(page.getByRole("heading", { name: /^Alert #\d+$/ })).toBeVisible();
      await expect(page.getByTestId("alert-account")).toHaveAttribute("href", `/accounts/${account}`);
      await expect(page.getByTestId("alert-account")).toHaveText(accountNumber);
      expect(await page.getByRole("main").innerText()).not.toMatch(/\b[0-9a-f]{32}\b/);
      await expect(page.getByTestId("alert-movement").getByRole("link", { name: crid })).toHaveAttribute(
        "href",
        `/movements/INSTANT_FUNDING/${crid}`,
      );
      await shots(page, "alert-open");

      // A decision needs a note.
      await page.getByRole("button", { name: "Clear", exact: true }).click();
      await expect(page.locator("#f-note-error")).toBeVisible();
      await page.getByLabel("Note").fill(note);
      // Asked first (a decided alert cannot be reopened): declined, the alert stays open with its note.
      const asked: string[] = [];
      page.once("dialog", (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await page.getByRole("button", { name: "Clear", exact: true }).click();
      expect(asked).toEqual([expect.stringMatching(/^Clear alert #\d+\? A decided alert cannot be reopened\.$/)]);
      await expect(page.getByTestId("alert-status")).toHaveText("Open");
      await expect(page.getByLabel("Note")).toHaveValue(note);
      page.once("dialog", (d) => void d.accept());
      await page.getByRole("button", { name: "Clear", exact: true }).click();
      await expect(page.getByTestId("alert-status")).toHaveText("Cleared");
      await expect(page.getByTestId("alert-note")).toHaveText(note);
      await expect(page.getByRole("button", { name: "Clear", exact: true })).toHaveCount(0);
      await shots(page, "alert-cleared");

      // Out of the open queue, in the cleared one.
      await page.goto("/alerts?status=open");
      await expect(page.getByTestId("alert-row").first().or(page.getByText("No alerts match these filters."))).toBeVisible();
      await expect(page.getByTestId("alert-row").filter({ hasText: shown })).toHaveCount(0);
      await page.goto("/alerts?status=cleared");
      await expect(page.getByTestId("alert-row").filter({ hasText: shown })).toHaveCount(1);

      await page.goto("/audit?verify=1");
      await expect(page.getByTestId("chain-status")).toHaveAttribute("data-mode", "incremental");
      await expect(page.getByTestId("chain-status")).toContainText("Hash chain intact");
      await shots(page, "audit-verify");

      await page.goto("/audit?action=alerts.decide");
      const entry = page.getByTestId("audit-row").filter({ hasText: note });
      await expect(entry).toHaveCount(1);
      await expect(entry).toContainText("compliance@brokerdesk.test");
      await expect(entry).toContainText("success");
    });
  });

  describeAs("as admin", "admin", () => {
    test("the rules page lists one rule of each kind and edits a threshold", async ({ page }) => {
      await page.goto("/admin/surveillance");
      await expect(page.getByTestId("rule-row")).toHaveCount(4);
      // parameters in words, never the stored names (minAmount, tolerancePct)
      const rules = page.getByTestId("rule-row");
      await expect(rules.filter({ hasText: "Withdrawal soon after a similar deposit" })).toContainText(
        /Within \d+ days of the deposit, amounts within \d+ % of each other, withdrawals from [\d,]+\.\d{2} in any currency/,
      );
      await expect(rules.filter({ hasText: "Many journals into one account in a day" })).toContainText(/More than \d+ journals a day/);
      for (const row of await rules.all()) await expect(row).not.toContainText(/minAmount|tolerancePct/);
      await page
        .getByTestId("rule-row")
        .filter({ hasText: "Deposit or withdrawal above USD 50,000" })
        .getByRole("link", { name: "Edit" })
        .click();
      await expect(page.getByTestId("rule-form")).toBeVisible();
      await shots(page, "rules");
      await page.getByLabel("Above (amount)").fill("not a number");
      await page.getByRole("button", { name: "Save rule" }).click();
      await expect(page.locator("#f-amount-error")).toBeVisible();
      await page.getByLabel("Above (amount)").fill("50000");
      // Unticking "Enabled" turns the rule off: asked first, naming it; declined, nothing is saved and the form keeps it.
      const enabled = page.getByLabel(/^Enabled/);
      await enabled.uncheck();
      let question = "";
      page.once("dialog", (d) => {
        question = d.message();
        void d.dismiss();
      });
      await page.getByRole("button", { name: "Save rule" }).click();
      await expect.poll(() => question).toContain('Disable the rule "Deposit or withdrawal above USD 50,000"?');
      await expect(enabled).not.toBeChecked();
      await expect(page.getByText("Rule saved.")).toBeHidden();
      await enabled.check();
      // Saved unchanged: the deposit spec above keeps its threshold, and no question for a rule that stays on.
      await page.getByRole("button", { name: "Save rule" }).click();
      await expect(page.getByText("Rule saved.")).toBeVisible();
      await expect(page.getByTestId("rule-row").filter({ hasText: "Deposit or withdrawal above USD 50,000" })).toContainText(
        "admin@brokerdesk.test",
      );
    });
  });

  describeAs("as support", "support", () => {
    test("the queue, an alert and its API are refused", async ({ page }) => {
      expect((await page.goto("/alerts"))?.status()).toBe(403);
      await expect(page.getByText("You do not have access to this page")).toBeVisible();
      expect((await page.goto("/alerts/1"))?.status()).toBe(403);
      expect((await page.request.get("/api/alerts")).status()).toBe(403);
      expect((await page.goto("/admin/surveillance"))?.status()).toBe(403);
      await expect(page.getByRole("link", { name: "Alerts" })).toHaveCount(0);
    });
  });
});

// The listing checks: 26 deposits above the rule's USD 50,000 on an account (more than the smallest page of alerts),
// and one more made at the sandbox appears in the open queue.
listingChecks("alerts", {
  async make({ browser }) {
    const tag = Date.now() % 10_000;
    const list = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } });
    const own: string = list.body.data.filter((x: { account_status?: string }) => x.account_status === "ACTIVE")[6].account_id;
    const deposit = (i: number) => ({
      method: "POST" as const,
      path: "/broker/funding/instant-funding/create",
      body: {
        account_id: own,
        type: "DEPOSIT",
        client_request_id: `e2elistal${tag}x${i}`,
        amount: `${80_000 + i}.${String(tag % 100).padStart(2, "0")}`,
        currency: "USD",
      },
    });
    for (const r of sandboxCalls(Array.from({ length: 26 }, (_, i) => deposit(i)))) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const shown = (i: number) => `Deposit of USD ${(80_000 + i).toLocaleString("en-US")}.${String(tag % 100).padStart(2, "0")}`;
    await untilDeskHolds(
      browser,
      "compliance",
      "/api/alerts?status=open&size=100",
      Array.from({ length: 26 }, (_, i) => shown(i)),
    );
    return {
      filter: { label: "Status", param: "status", value: "open", kind: "select" },
      row: shown(25), // the newest: on the first page whatever its size
      size: 25,
      paging: { kind: "pages", query: "?status=open&size=25" },
      async live(page) {
        const [r] = sandboxCalls([deposit(99)]);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return page.getByTestId("alert-row").filter({ hasText: shown(99) });
      },
    };
  },
});
