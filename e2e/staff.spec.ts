import { expect, test } from "./fixtures";
import { createStaffAsAdmin as createUser, storageFor } from "./helpers";
import { listingChecks } from "./listing-checks";

test.describe("Admin → Staff", () => {
  test.use({ storageState: storageFor("admin") });

  test("creates a user, changes the role, disables and enables it", async ({ page }) => {
    const email = `new-${Date.now()}@brokerdesk.test`;
    await createUser(page, email);
    const row = page.getByTestId(`staff-row-${email}`);
    await expect(row).toBeVisible();

    // A role change is confirmed first, naming the old and the new role; dismissed, nothing changes.
    page.once("dialog", (d) => {
      expect(d.message()).toContain("from Support to Compliance");
      void d.dismiss();
    });
    await row.getByLabel(`Role of ${email}`).selectOption("compliance");
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("support");
    await page.reload();
    await expect(page.getByTestId(`staff-row-${email}`).getByLabel(`Role of ${email}`)).toHaveValue("support");
    page.once("dialog", (d) => void d.accept());
    await page.getByTestId(`staff-row-${email}`).getByLabel(`Role of ${email}`).selectOption("compliance");
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
    // A field's hint is read with it, and its error in the hint's place.
    const password = page.getByLabel("Initial password");
    await expect(password).toHaveAccessibleDescription("At least 12 characters. Share it privately.");
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByText("Enter a name")).toBeVisible();
    await expect(page.getByText("Use at least 12 characters")).toBeVisible();
    await expect(password).toHaveAccessibleDescription("Use at least 12 characters");
    await expect(page.getByLabel("Name")).toHaveAccessibleDescription("Enter a name");

    await page.getByLabel("Name").fill("Dup");
    await page.getByLabel("Email").fill("ops@brokerdesk.test");
    await page.getByLabel("Initial password").fill("a-long-enough-password");
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.locator("#f-email-error")).toHaveText("A staff user with this email already exists");
    // Said once, on the field; the banner points at it.
    await expect(page.getByText(/already exists/)).toHaveCount(1);
    await expect(page.getByText("Check the highlighted fields.")).toBeVisible();

    // A name too long is told in words, not in types.
    await page.getByLabel("Name").fill("x".repeat(121));
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.locator("#f-name-error")).toHaveText("Use at most 120 characters");
  });

  test("a double submit sends one request; an unreachable server is said so and the entries are kept", async ({ page }) => {
    await page.goto("/admin/staff");
    const email = `twice-${Date.now()}@brokerdesk.test`;
    await page.getByLabel("Name").fill("Twice");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Initial password").fill("a-long-enough-password");

    // The server cannot be reached: the action call itself fails.
    await page.route("**/admin/staff", (route) =>
      route.request().headers()["next-action"] ? route.abort("internetdisconnected") : route.continue(),
    );
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByText("The server could not be reached. Your entries are kept: submit again.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await page.unroute("**/admin/staff");

    // Back again, submitted twice before the first answer: one request, one user.
    const actionCalls: string[] = [];
    page.on("request", (req) => {
      if (req.headers()["next-action"]) actionCalls.push(req.url());
    });
    await page.locator("form", { has: page.getByLabel("Initial password") }).evaluate((form: HTMLFormElement) => {
      form.requestSubmit();
      form.requestSubmit();
    });
    await expect(page.getByText(`${email} can now sign in.`)).toBeVisible();
    expect(actionCalls).toHaveLength(1);
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

// The listing checks: eleven users of this run (more than the smallest page), a user made in another browser appears.
listingChecks("staff", {
  async make({ browser }) {
    const run = Date.now().toString(36);
    const admin = await browser.newPage({ storageState: storageFor("admin") });
    // "0…" sorts before every demo user: this run's users are on the first page in the default order (email).
    for (let i = 0; i < 11; i++) await createUser(admin, `0list-${run}-${String(i).padStart(2, "0")}@brokerdesk.test`);
    await admin.close();
    return {
      row: `0list-${run}-00@brokerdesk.test`,
      size: 10,
      paging: { kind: "pages", query: "?size=10" },
      async live(page) {
        const other = await browser.newPage({ storageState: storageFor("admin") });
        const email = `0live-${run}@brokerdesk.test`;
        await createUser(other, email);
        await other.close();
        return page.getByTestId(`staff-row-${email}`);
      },
    };
  },
});
