import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { storageFor } from "./helpers";

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
    const lines = fs.readFileSync(file!, "utf8").trim().split("\r\n");
    expect(lines[0]).toBe("Seq,Time (UTC),Actor,Role,Action,Target,Outcome,Error code,Upstream request id,Idempotency key,Client IP,User agent,Input,Hash");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toContain(",auth.sign_in,");

    // The export is itself on the record.
    await page.goto("/audit?action=audit.export");
    await expect(page.getByTestId("audit-row").first()).toContainText("compliance@brokerdesk.test");
  });

  test("support has neither the page nor the export", async ({ browser }) => {
    const support = await browser.newContext({ storageState: storageFor("support") });
    const page = await support.newPage();
    expect((await page.goto("/audit"))?.status()).toBe(403);
    const csv = await page.request.get("/api/audit/export");
    expect(csv.status()).toBe(403);
    expect(await csv.text()).not.toContain("auth.sign_in");
    await support.close();
  });
});
