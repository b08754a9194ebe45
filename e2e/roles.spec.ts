import { expect, test } from "./fixtures";
import { createStaffAsAdmin, describeAs, shots, signIn } from "./helpers";

describeAs("Admin → Roles", "admin", () => {
  test("a custom role with orders:read only sees the blotter, without controls; taking the permission away applies at the next request", async ({
    page,
    browser,
  }) => {
    const stamp = Date.now();
    const label = `Order viewer ${stamp}`;
    const email = `viewer-${stamp}@brokerdesk.test`;

    await page.goto("/admin/roles");
    const form = page.getByRole("form", { name: "New role" });
    await form.getByLabel("Name").fill(label);
    await form.getByLabel("Read orders and executions (the blotter)").check();
    await form.getByRole("button", { name: "Create role" }).click();
    await expect(page.getByText(`${label} created.`)).toBeVisible();
    const key = `order-viewer-${stamp}`;
    await expect(page.getByTestId(`role-col-${key}`)).toContainText(label);
    await expect(page.getByLabel(`${label}: orders:read granted`)).toBeVisible();
    await expect(page.getByLabel(`${label}: orders:modify not granted`)).toBeVisible();

    await createStaffAsAdmin(page, email, { role: label });
    await page.goto("/admin/roles");
    await expect(page.getByTestId(`role-holders-${key}`)).toContainText(email);
    await shots(page, "roles", "matrix");

    // The holder signs in: Home and the blotter in the menu, nothing else; no order controls.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const viewer = await context.newPage();
    await signIn(viewer, email, "a-long-enough-password");
    await expect(viewer.getByTestId("current-user")).toContainText(email);
    await expect(viewer.getByTestId("current-role")).toHaveText(label);
    await expect(viewer.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Home", "Orders"]);
    await expect(viewer.getByText("Your role may: read orders and executions (the blotter).")).toBeVisible();
    await viewer.goto("/orders");
    await expect(viewer.getByRole("heading", { name: "Orders" })).toBeVisible();
    await expect(viewer.getByRole("link", { name: "New order" })).toHaveCount(0);
    await expect(viewer.getByRole("button", { name: /^Cancel/ })).toHaveCount(0);
    const accounts = await viewer.goto("/accounts");
    expect(accounts?.status()).toBe(403);

    // The admin takes orders:read away (market data instead): the holder's next request is refused.
    await page.goto("/admin/roles");
    // Hydrated (the header's live mark), so the Edit link navigates on the client and the form is React's.
    await expect(page.getByTestId("live-indicator")).toHaveText("Live");
    await page.getByTestId(`role-col-${key}`).getByRole("link", { name: "Edit" }).click();
    await expect(page).toHaveURL(new RegExp(`edit=${key}`));
    const edit = page.getByRole("form", { name: `Edit role ${label}` });
    await edit.getByLabel("Read orders and executions (the blotter)").uncheck();
    await edit.getByLabel("Market and reference data").check();
    await edit.getByRole("button", { name: "Save role" }).click();
    await expect(page.getByText(`${label} saved`)).toBeVisible();
    await expect(page.getByLabel(`${label}: orders:read not granted`)).toBeVisible();

    const orders = await viewer.goto("/orders");
    expect(orders?.status()).toBe(403);
    await viewer.goto("/");
    await expect(viewer.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Home", "Markets"]);
    const api = await viewer.request.get("/api/orders");
    expect(api.status()).toBe(403);

    // Held by someone, the role cannot be deleted; the refusal says why.
    page.once("dialog", (d) => void d.accept());
    await edit.getByRole("button", { name: "Delete role" }).click();
    await expect(page.getByText("Staff still hold this role")).toBeVisible();

    // The change is in the audit trail.
    await page.goto(`/audit?action=staff.role_update`);
    await expect(page.getByText(`role:${key}`).first()).toBeVisible();
    await context.close();
  });

  test("a role's name is checked on the server and a built-in role offers no edit", async ({ page }) => {
    await page.goto("/admin/roles");
    const form = page.getByRole("form", { name: "New role" });
    await form.getByLabel("Name").fill("Support");
    await form.getByLabel("Read accounts").check();
    await form.getByRole("button", { name: "Create role" }).click();
    await expect(form.locator("#f-label-error")).toHaveText("A role with this name already exists");
    await form.getByLabel("Name").fill("x");
    await form.getByRole("button", { name: "Create role" }).click();
    await expect(form.locator("#f-label-error")).toHaveText("Enter a name of at least 2 characters");
    await expect(page.getByTestId("role-col-support").getByRole("link", { name: "Edit" })).toHaveCount(0);
  });
});
