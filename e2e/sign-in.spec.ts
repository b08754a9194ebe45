import { expect, test } from "./fixtures";
import { ROLE_EMAILS, createStaffAsAdmin, expectSignedIn, signIn, storageFor } from "./helpers";

/** The one sign-in failure message (server/auth/staff.ts SIGN_IN_FAILED). */
const SIGN_IN_FAILED =
  "Sign-in failed. Check your email and password; after 5 failed attempts an account is locked for 15 minutes, and an administrator can unlock it.";

test("the sign-in page says it is in demo mode and rejects a wrong password", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByTestId("demo-notice")).toContainText("brokerdesk-demo");
  await signIn(page, ROLE_EMAILS.operations, "wrong-password");
  await expect(page.locator("form").getByRole("alert")).toHaveText(SIGN_IN_FAILED);
});

test("an unknown email, a locked and a disabled account get the same message as a wrong password", async ({ page, browser }) => {
  await signIn(page, `nobody-${Date.now()}@brokerdesk.test`, "whatever-password");
  await expect(page.locator("form").getByRole("alert")).toHaveText(SIGN_IN_FAILED);
  const admin = await browser.newContext({ storageState: storageFor("admin") });
  const adminPage = await admin.newPage();
  const email = `off-${Date.now()}@brokerdesk.test`;
  await createStaffAsAdmin(adminPage, email, { password: "the-right-password" });
  adminPage.once("dialog", (d) => void d.accept());
  await adminPage.getByTestId(`staff-row-${email}`).getByRole("button", { name: "Disable" }).click();
  await expect(adminPage.getByTestId(`staff-row-${email}`).getByText("Disabled", { exact: true })).toBeVisible();
  await signIn(page, email, "the-right-password");
  await expect(page.locator("form").getByRole("alert")).toHaveText(SIGN_IN_FAILED);
  await admin.close();
});

test("the fifth wrong password locks the account (the message stays the same, the audit trail says why); an admin can unlock", async ({
  page,
  browser,
}) => {
  const admin = await browser.newContext({ storageState: storageFor("admin") });
  const adminPage = await admin.newPage();
  const email = `lock-${Date.now()}@brokerdesk.test`;
  await createStaffAsAdmin(adminPage, email, { password: "the-right-password" });

  for (let attempt = 1; attempt <= 6; attempt++) {
    await signIn(page, email, `wrong-${attempt}`);
    await expect(page.locator("form").getByRole("alert")).toHaveText(SIGN_IN_FAILED);
  }
  // Locked: even the right password is refused, with the same message.
  await signIn(page, email, "the-right-password");
  await expect(page.locator("form").getByRole("alert")).toHaveText(SIGN_IN_FAILED);

  await adminPage.goto("/admin/staff");
  const row = adminPage.getByTestId(`staff-row-${email}`);
  await expect(row.getByText("Locked")).toBeVisible();
  await row.getByRole("button", { name: "Unlock" }).click();
  await expect(row.getByText("Locked")).toHaveCount(0);
  await signIn(page, email, "the-right-password");
  await expectSignedIn(page, email);

  await adminPage.goto(`/audit?actor=${encodeURIComponent(email)}&action=auth.lockout`);
  await expect(adminPage.getByTestId("audit-row")).toHaveCount(1);
  // A lockout is a warning, not a green "success".
  await expect(adminPage.getByTestId("audit-row").getByText("locked out", { exact: true })).toBeVisible();
  await expect(adminPage.getByTestId("audit-row").getByText("success", { exact: true })).toHaveCount(0);
  await admin.close();
});

test("sign-out ends the session, also for a copy of the session cookie", async ({ page, browser }) => {
  // A user of its own: sign-out ends every session of the user, and the demo users' sessions are shared.
  const admin = await browser.newContext({ storageState: storageFor("admin") });
  const email = `signout-${Date.now()}@brokerdesk.test`;
  await createStaffAsAdmin(await admin.newPage(), email, { password: "the-right-password" });
  await admin.close();
  await signIn(page, email, "the-right-password");
  await expectSignedIn(page, email);
  const cookies = await page.context().cookies();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);

  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const other = await replay.newPage();
  await other.goto("/");
  await expect(other).toHaveURL(/\/sign-in/);
  await replay.close();
});

test("signed out on 127.0.0.1, the redirect names no other host and sign-in lands back on the page asked for", async ({
  page,
  request,
  baseURL,
}) => {
  expect(new URL(baseURL!).hostname).toBe("127.0.0.1");
  const res = await request.get("/accounts?status=ACTIVE", { maxRedirects: 0 });
  expect(res.status()).toBe(307);
  // Relative, or on the host the request came on; never the server's own idea of its name.
  expect(res.headers().location).not.toContain("localhost");
  expect(new URL(res.headers().location, baseURL).href).toBe(
    `${new URL(baseURL!).origin}/sign-in?callbackUrl=%2Faccounts%3Fstatus%3DACTIVE`,
  );
  await page.goto("/accounts?status=ACTIVE");
  await expect(page).toHaveURL(/\/sign-in/);
  expect(new URL(page.url()).host).toBe(new URL(baseURL!).host);
  await page.getByLabel("Email").fill(ROLE_EMAILS.support);
  await page.getByLabel("Password").fill("brokerdesk-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/accounts\?status=ACTIVE$/);
  expect(new URL(page.url()).host).toBe(new URL(baseURL!).host);
});
