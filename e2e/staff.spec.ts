import { expect, test } from "@playwright/test";
import { createStaffAsAdmin as createUser, storageFor } from "./helpers";

test.describe("Admin → Staff", () => {
  test.use({ storageState: storageFor("admin") });

  test("creates a user, changes the role, disables and enables it", async ({ page }) => {
    const email = `new-${Date.now()}@brokerdesk.test`;
    await createUser(page, email);
    const row = page.getByTestId(`staff-row-${email}`);
    await expect(row).toBeVisible();

    await row.getByLabel(`Role of ${email}`).selectOption("compliance");
    await expect(page.getByText(`${email} is now Compliance.`)).toBeVisible();

    page.once("dialog", (d) => d.accept());
    await row.getByRole("button", { name: "Disable" }).click();
    await expect(row.getByText("Disabled")).toBeVisible();
    await row.getByRole("button", { name: "Enable" }).click();
    await expect(row.getByText("Active")).toBeVisible();
  });

  test("sorts the staff list on the server, the order kept in the URL", async ({ page }) => {
    await page.goto("/admin/staff");
    const emails = () => page.locator("tbody tr td:nth-child(2)").allTextContents();
    const byEmail = await emails();
    expect(byEmail).toEqual([...byEmail].sort());
    await page.getByRole("button", { name: "Email", exact: true }).click();
    await expect.poll(() => page.url()).toContain("sort=email.desc");
    await expect(page.getByRole("columnheader", { name: "Email" })).toHaveAttribute("aria-sort", "descending");
    await expect.poll(emails).toEqual([...byEmail].reverse());
    await page.reload();
    await expect.poll(emails).toEqual([...byEmail].reverse());
    // What the server sorts by is offered, and nothing else.
    await expect(page.getByRole("columnheader", { name: "Role", exact: true }).getByRole("button")).toHaveCount(1);
    await expect(page.getByRole("columnheader", { name: "Status" }).getByRole("button")).toHaveCount(0);
  });

  test("shows field errors from the shared schema and refuses a duplicate email", async ({ page }) => {
    await page.goto("/admin/staff");
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByText("Enter a name")).toBeVisible();
    await expect(page.getByText("Use at least 12 characters")).toBeVisible();

    await page.getByLabel("Name").fill("Dup");
    await page.getByLabel("Email").fill("ops@brokerdesk.test");
    await page.getByLabel("Initial password").fill("a-long-enough-password");
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByText("A staff user with this email already exists")).toBeVisible();
  });
});

test.describe("permissions are enforced on the server", () => {
  test("support is refused the Staff page and its server action, called directly", async ({ browser }) => {
    // Learn the action's id the way a browser does: from the request the admin's page sends.
    const admin = await browser.newContext({ storageState: storageFor("admin") });
    const adminPage = await admin.newPage();
    const actionIds: string[] = [];
    adminPage.on("request", (req) => {
      const id = req.headers()["next-action"];
      if (id) actionIds.push(id);
    });
    await createUser(adminPage, `probe-${Date.now()}@brokerdesk.test`);
    expect(actionIds.length).toBeGreaterThan(0);

    const support = await browser.newContext({ storageState: storageFor("support") });
    const page = await support.newPage();
    const response = await page.goto("/admin/staff");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Staff" })).toHaveCount(0);

    const victim = `sneaky-${Date.now()}@brokerdesk.test`;
    const direct = await page.request.post("/admin/staff", {
      headers: { "next-action": actionIds[0], accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
      data: JSON.stringify([{ email: victim, name: "Sneaky", role: "admin", password: "a-long-enough-password" }]),
    });
    const body = await direct.text();
    expect(body).toContain("FORBIDDEN");
    expect(body).not.toContain(victim);

    await adminPage.goto("/admin/staff");
    await expect(adminPage.getByTestId(`staff-row-${victim}`)).toHaveCount(0);
    await adminPage.goto(`/audit?action=staff.create&outcome=denied&actor=support`);
    await expect(adminPage.getByTestId("audit-row").first()).toContainText("FORBIDDEN");
    await admin.close();
    await support.close();
  });
});
