import fs from "node:fs";
import { expect, test } from "./fixtures";
import { cutOff, filterBarReady, shots, storageFor } from "./helpers";
import { listingChecks, refusesBackwardsRange } from "./listing-checks";

test.describe("Audit trail", () => {
  test.use({ storageState: storageFor("compliance") });

  test("compliance filters the trail, verifies the hash chain and exports the filter as CSV", async ({ page }) => {
    await page.goto("/audit?action=auth.sign_in&outcome=success");
    const rows = page.getByTestId("audit-row");
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) await expect(row).toContainText("auth.sign_in");

    await page.getByRole("link", { name: "Verify hash chain" }).click();
    await expect(page.getByTestId("chain-status")).toContainText("Hash chain intact");

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await (await download).path();
    const raw = fs.readFileSync(file!);
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the UTF-8 byte order mark, for spreadsheet programs
    const lines = raw.toString("utf8").slice(1).trim().split("\r\n");
    expect(lines[0]).toBe(
      "Seq,Time (UTC),Actor,Role,Action,Target,Outcome,Error code,Upstream request id,Idempotency key,Client IP,User agent,Channel,Token,Input,Hash",
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toContain(",auth.sign_in,");

    // The export is itself on the record.
    await page.goto("/audit?action=audit.export");
    await expect(page.getByTestId("audit-row").first()).toContainText("compliance@brokerdesk.test");
  });

  test("compliance filters by action prefix and days, opens an entry's detail, and exports exactly the filter", async ({ page }) => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.goto("/audit");
    await filterBarReady(page);
    await page.getByLabel("Action", { exact: true }).fill("auth.");
    await page.getByLabel("From", { exact: true }).fill(today);
    await page.getByLabel("To", { exact: true }).fill(today);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => page.url()).toContain(`action=auth.&from=${today}&to=${today}`);
    const rows = page.getByTestId("audit-row");
    await expect(rows.first()).toBeVisible();
    // Every row's action (rows may be read again as other entries arrive: no row list held across a refetch).
    await expect(rows.locator("td:nth-child(4)").filter({ hasNotText: /^auth\./ })).toHaveCount(0);
    // The fields show the URL's filters.
    await expect(page.getByLabel("Action", { exact: true })).toHaveValue("auth.");
    await expect(page.getByLabel("From", { exact: true })).toHaveValue(today);
    // Days in the desk's format whatever the browser's locale (a native date input showed mm/dd/yyyy).
    await expect(page.getByLabel("From", { exact: true })).toHaveAttribute("placeholder", "YYYY-MM-DD");
    // Targets (staff:<uuid>) are shown whole at 1280 px, wrapped in their column, not cut.
    expect(await cutOff(rows.locator("td:nth-child(5)"))).toEqual([]);
    await shots(page, "audit", "trail");

    // The entry's detail: every column, the hashes, the way back.
    const seq = (await rows.first().locator("td").first().textContent())!.trim();
    // Whoever signed in last (other specs sign in too): the detail names the same person as the row.
    const actor = /\S+@\S+\.test/.exec((await rows.first().locator("td").nth(2).textContent())!)![0];
    await rows
      .first()
      .getByRole("link", { name: `Entry ${seq}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/audit/${seq}$`));
    await expect(page.getByRole("heading", { name: `Audit entry #${seq}` })).toBeVisible();
    const entry = page.getByTestId("audit-entry");
    await expect(entry).toContainText(/auth\./);
    await expect(entry).toContainText(actor);
    await expect(entry.getByText(/^[0-9a-f]{64}$/)).toHaveCount(2); // its hash and the previous entry's
    await expect(page.getByRole("region", { name: "Same target, nearby" })).toBeVisible();
    expect(await cutOff(page.locator("main"))).toEqual([]);
    await shots(page, "audit", "entry");
    await page.goBack();
    await expect.poll(() => page.url()).toContain("action=auth.");

    // The export is the filter: every row's action starts with auth. and its time is today (UTC).
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const lines = fs
      .readFileSync((await (await download).path())!)
      .toString("utf8")
      .slice(1)
      .trim()
      .split("\r\n")
      .slice(1);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const cells = line.split(",");
      expect(cells[1].startsWith(today)).toBe(true);
      expect(cells[4]).toMatch(/^auth\./);
    }
    const onScreen = (await rows.locator("td:first-child").allTextContents()).map((t) => t.trim());
    expect(lines.slice(0, onScreen.length).map((l) => l.split(",")[0])).toEqual(onScreen);

    // No entry is from tomorrow.
    await page.goto(`/audit?action=auth.&from=${tomorrow}`);
    await expect(page.getByText("No audit entries match these filters.")).toBeVisible();
  });

  test("sorts in the database across pages, and pages back and forth with the cursor", async ({ page }) => {
    // Enough entries for two pages of ten whatever ran before (each export is an entry), and the oldest one's number.
    for (let i = 0; i < 11; i++) expect((await page.request.get("/api/audit/export?action=nothing-matches")).status()).toBe(200);
    const oldest = Number((await (await page.request.get("/api/audit/export")).text()).trim().split("\r\n").at(-1)!.split(",")[0]);
    const seqs = async () => (await page.getByTestId("audit-row").locator("td:first-child").allTextContents()).map(Number);

    await page.goto("/audit?size=10");
    await expect(page.getByTestId("audit-row")).toHaveCount(10);
    // At 1280 px every column is on screen (the table does not scroll sideways), and rows stay compact.
    await page.goto("/audit?size=100");
    await expect(page.getByTestId("audit-row").first()).toBeVisible();
    const wrap = page.locator("table").locator("..");
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    for (const box of await page.getByTestId("audit-row").evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height)))
      expect(box).toBeLessThan(80); // a long target wraps (up to three short lines) rather than being cut off
    await page.goto("/audit?size=10");
    await expect(page.getByTestId("audit-row")).toHaveCount(10);
    // The columns the trail's SQL orders by sort, and only those.
    for (const name of ["#", "Actor", "Action"])
      await expect(page.getByRole("columnheader", { name, exact: true }).getByRole("button")).toHaveCount(1);
    for (const name of ["Time", "Target", "Outcome"])
      await expect(page.getByRole("columnheader", { name, exact: true }).getByRole("button")).toHaveCount(0);
    const newest = await seqs();
    expect(newest).toEqual([...newest].sort((a, b) => b - a));

    // Oldest first is the whole trail's order, not this page's rows turned round: it starts at the oldest entry.
    await page.getByRole("button", { name: "#", exact: true }).click();
    await expect.poll(() => page.url()).toContain("sort=seq.asc");
    await expect(page.getByRole("columnheader", { name: "#" })).toHaveAttribute("aria-sort", "ascending");
    await expect(page.getByTestId("audit-row").first().locator("td").first()).toHaveText(String(oldest));
    const first = await seqs();
    expect(first).toEqual([...first].sort((a, b) => a - b));
    await page.getByRole("button", { name: "Next →" }).click();
    await expect(page.getByTestId("page-info")).toContainText("Page 2");
    expect(page.url()).toContain("cursor=");
    // The page number follows the URL at once, the rows when the next page arrives.
    await expect.poll(async () => (await seqs())[0]).toBeGreaterThan(first.at(-1)!);
    const second = await seqs();
    expect(second).toEqual([...second].sort((a, b) => a - b));
    await page.getByRole("button", { name: "← Previous" }).click();
    await expect(page.getByTestId("page-info")).toContainText("Page 1");
    await expect.poll(seqs).toEqual(first);

    // A filter keeps the order and starts again on the first page.
    await page.getByLabel("Action", { exact: true }).fill("auth.sign_in");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => page.url()).toContain("action=auth.sign_in");
    expect(page.url()).toContain("sort=seq.asc");
    expect(page.url()).not.toContain("cursor=");
    // The URL changes at once and the rows when the filter's page arrives: wait for every row to be a sign-in.
    await expect
      .poll(async () => {
        const rows = await page.getByTestId("audit-row").allTextContents();
        return rows.length > 0 && rows.every((r) => r.includes("auth.sign_in"));
      })
      .toBe(true);
  });

  test("a backwards date range is said on its end and not applied", async ({ page }) => {
    await refusesBackwardsRange(page, "/audit", { from: "From", to: "To" });
  });

  test("support has neither the pages, the entry route nor the export", async ({ browser }) => {
    const support = await browser.newContext({ storageState: storageFor("support") });
    const page = await support.newPage();
    expect((await page.goto("/audit"))?.status()).toBe(403);
    expect((await page.goto("/audit/1"))?.status()).toBe(403);
    expect((await page.request.get("/api/audit/1")).status()).toBe(403);
    const csv = await page.request.get("/api/audit/export");
    expect(csv.status()).toBe(403);
    expect(await csv.text()).not.toContain("auth.sign_in");
    await support.close();
  });
});

// The listing checks: eleven exports of this run (each an `audit.export` entry); another person's export appears.
listingChecks("audit", {
  async make({ browser }) {
    const run = Date.now().toString(36);
    const compliance = await browser.newContext({ storageState: storageFor("compliance") });
    for (let i = 0; i < 11; i++) expect((await compliance.request.get(`/api/audit/export?action=list-${run}-${i}`)).status()).toBe(200);
    await compliance.close();
    return {
      filter: { label: "Action", param: "action", value: "audit.export", kind: "text" },
      row: "audit.export",
      size: 10,
      paging: { kind: "pages", query: "?action=audit.export&size=10" },
      async live(page) {
        const shown = page.locator("main tbody tr");
        await expect(shown.first()).toContainText("audit.export");
        const before = await shown.count();
        expect(before).toBeLessThan(50);
        const admin = await browser.newContext({ storageState: storageFor("admin") });
        expect((await admin.request.get(`/api/audit/export?action=live-${run}`)).status()).toBe(200);
        await admin.close();
        return shown.nth(before);
      },
      csv: { header: "Seq", each: "audit.export" },
    };
  },
});
