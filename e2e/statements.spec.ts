import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { unzipSync } from "fflate";
import { extractText } from "unpdf";
import { sandboxAccountId } from "./accounts-helpers";
import { storageFor } from "./helpers";

/**
 * Statements as a person gets them: one account's statement downloaded from its page (a PDF whose text names the
 * account and its balances), and every account's statements of a month prepared by the statements job, its progress
 * on the page live, its zip downloaded.
 */
// A seeded account, there before the months the tests pick: the first account the sandbox lists can be one another
// spec opened today, which has no statement of last month (and is not in its zip).
const number = "VBD1000005";
let account = "";

test.beforeAll(() => {
  account = sandboxAccountId(number);
});

test.describe.serial("as operations", () => {
  test.use({ storageState: storageFor("operations") });

  test("downloads an account's statement as PDF from the account page", async ({ page }) => {
    await page.goto(`/accounts/${account}`);
    const panel = page.getByTestId("statements-panel");
    await expect(panel).toBeVisible();
    // The desk knows the account once its activities are swept (at start) or its number is learnt (this page).
    await expect
      .poll(async () => (await page.request.get(`/api/accounts/${account}/confirmations`)).status(), { timeout: 30_000 })
      .toBe(200);
    const month = panel.getByRole("group", { name: "Months" }).getByRole("button").nth(1);
    await month.click();
    await expect(month).toHaveAttribute("aria-pressed", "true");
    const downloading = page.waitForEvent("download");
    await panel.getByRole("link", { name: "Statement PDF" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^statement-${number}-\\d{4}-\\d{2}-01-to-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    const { text } = await extractText(new Uint8Array(readFileSync((await download.path())!)), { mergePages: true });
    expect(text).toContain("Account statement");
    expect(text).toContain(number);
    expect(text).toContain("Balances");
  });

  test("prepares every account's statements of a month in one zip, with its progress live", async ({ page }) => {
    await page.goto("/statements");
    await expect(page.getByRole("heading", { name: "Statements", exact: true })).toBeVisible();
    const form = page.getByRole("region", { name: "New zip of every account's statement" });
    await form.getByRole("group", { name: "Months" }).getByRole("button").nth(1).click();
    await form.getByRole("button", { name: "Prepare zip" }).click();
    await expect(page.getByText(/^Run \d+ asked for/)).toBeVisible();
    const row = page.getByTestId("statement-runs").locator("tbody tr").first();
    await expect(row.getByText("Done")).toBeVisible({ timeout: 60_000 });
    const bar = row.getByRole("progressbar");
    await expect(bar).toHaveAttribute("aria-valuenow", (await bar.getAttribute("aria-valuemax"))!);
    const downloading = page.waitForEvent("download");
    await row.getByRole("link", { name: /Download zip/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^statements-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = Object.keys(unzipSync(new Uint8Array(readFileSync((await download.path())!))));
    expect(files.some((f) => f.startsWith(`statement-${number}-`) && f.endsWith(".pdf"))).toBe(true);
    expect(files.some((f) => f.startsWith(`statement-${number}-`) && f.endsWith(".csv"))).toBe(true);
  });
});

test.describe("as support", () => {
  test.use({ storageState: storageFor("support") });

  test("is refused the statements page and its downloads", async ({ page }) => {
    expect((await page.request.get("/statements")).status()).toBe(403);
    expect((await page.request.get(`/api/accounts/${account}/statement/pdf?from=2026-11-01&to=2026-11-02`)).status()).toBe(403);
    await page.goto(`/accounts/${account}`);
    await expect(page.getByTestId("balance-panel")).toBeVisible();
    await expect(page.getByTestId("statements-panel")).toHaveCount(0);
  });
});
