import { expect, test, type Page } from "./fixtures";
import { Secret, TOTP } from "otpauth";
import { sign, SIGNATURE_HEADERS } from "@/cli/src/signing";
import { createStaffAsAdmin, expectSignedIn, shots, signIn, storageFor } from "./helpers";

/**
 * Two-factor sign-in and the command line's credentials on the started app: enrol an authenticator on Settings →
 * Security (the code computed here from the secret in the page's otpauth URI), sign in with a code (a wrong one
 * refused with the one message), an access key made and revoked on Settings → Command line and used in between by
 * a signed login over HTTP, and a role that requires two-factor sending its member to enrol first.
 */

const SIGN_IN_FAILED =
  "Sign-in failed. Check your email and password; after 5 failed attempts an account is locked for 15 minutes, and an administrator can unlock it.";
const PASSWORD = "the-right-password";

/** The authenticator's code `steps` steps from now (a code of a step already used is refused: each test takes the next). */
const codeOf = (uri: string, steps = 0) => {
  const secret = new URL(uri).searchParams.get("secret")!;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
};

/** A staff user of their own (made by the admin), signed in on `page`. */
async function newStaff(page: Page, browser: import("@playwright/test").Browser, prefix: string, role = "Support") {
  const admin = await browser.newContext({ storageState: storageFor("admin") });
  const email = `${prefix}-${Date.now()}@brokerdesk.test`;
  await createStaffAsAdmin(await admin.newPage(), email, { role, password: PASSWORD });
  await admin.close();
  await signIn(page, email, PASSWORD);
  await expectSignedIn(page, email);
  return email;
}

/** Enrols on Settings → Security as the page's user; answers the otpauth URI the page showed. */
async function enrolOnPage(page: Page, screenshots = false): Promise<string> {
  await page.goto("/settings/security");
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const pending = page.getByTestId("two-factor-pending");
  await expect(pending.getByRole("img", { name: "QR code of your authenticator set-up" })).toBeVisible();
  const uri = await pending.getByLabel("otpauth URI", { exact: true }).inputValue();
  expect(uri).toMatch(/^otpauth:\/\/totp\/Brokerdesk:[^?]+\?.*secret=[A-Z2-7]+/);
  if (screenshots) await shots(page, "cli-auth", "security-enrol");
  await pending.getByLabel("Code from the app").fill(codeOf(uri));
  await pending.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByTestId("two-factor-on")).toContainText("Two-factor sign-in has been on since");
  return uri;
}

test("enrol an authenticator, then sign in with its code; a wrong code gets the one message", async ({ page, browser }) => {
  const email = await newStaff(page, browser, "tfa");
  const uri = await enrolOnPage(page, true);
  await shots(page, "cli-auth", "security-on");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, email, PASSWORD);
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeVisible();
  await expect(page.getByTestId("current-user")).toHaveCount(0);
  await shots(page, "cli-auth", "sign-in-code");

  const right = codeOf(uri, 1);
  await code.fill(right === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify code" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText(SIGN_IN_FAILED);
  await page.getByLabel("Authentication code").fill(right);
  await page.getByRole("button", { name: "Verify code" }).click();
  await expectSignedIn(page, email);

  // The code just used is refused a second time (another browser, the password again).
  const other = await browser.newContext();
  const second = await other.newPage();
  await signIn(second, email, PASSWORD);
  await second.getByLabel("Authentication code").fill(right);
  await second.getByRole("button", { name: "Verify code" }).click();
  await expect(second.locator("form").getByRole("alert")).toHaveText(SIGN_IN_FAILED);

  // A lost phone: an administrator resets the authenticator on Admin → Staff, and the password alone signs in again.
  const admin = await browser.newContext({ storageState: storageFor("admin") });
  const adminPage = await admin.newPage();
  await adminPage.goto("/admin/staff");
  const row = adminPage.getByTestId(`staff-row-${email}`);
  await expect(row.getByText("Two-factor", { exact: true })).toBeVisible();
  adminPage.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Reset 2FA" }).click();
  await expect(row.getByText("Two-factor", { exact: true })).toHaveCount(0);
  await admin.close();
  await signIn(second, email, PASSWORD);
  await expectSignedIn(second, email);
  await other.close();
});

test("an access key made on Settings → Command line logs the command line in, and revoking it ends that", async ({
  page,
  browser,
  request,
}) => {
  await newStaff(page, browser, "cli");
  const uri = await enrolOnPage(page);

  await page.goto("/settings/cli");
  await page.getByLabel("Name", { exact: true }).fill("e2e laptop");
  await page.getByLabel("Access", { exact: true }).selectOption({ label: "Read only" });
  await page.getByRole("button", { name: "Create access key" }).click();
  const pair = page.getByTestId("new-access-key");
  await expect(pair).toContainText("you will not see it again");
  const id = await pair.getByLabel("Access key id", { exact: true }).inputValue();
  const secret = await pair.getByLabel("Secret key", { exact: true }).inputValue();
  expect(id).toMatch(/^bdak_[A-Za-z0-9_-]{20}$/);
  expect(secret).toMatch(/^bdsk_[A-Za-z0-9_-]{43}$/);
  const origin = new URL(page.url()).origin;
  await expect(pair.getByLabel("Login command", { exact: true })).toHaveValue(`brokerdesk login --desk ${origin} --access-key ${id}`);
  await shots(page, "cli-auth", "cli-new-key");

  // The command line's login and whoami over HTTP, signed as the CLI signs (cli/src/signing.ts).
  const signed = (method: "GET" | "POST", path: string, body?: unknown, session?: string) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const timestamp = String(Date.now());
    const nonce = `e2e${Math.random().toString(36).slice(2)}${Date.now()}`.slice(0, 32).padEnd(16, "x");
    const headers: Record<string, string> = {
      [SIGNATURE_HEADERS.key]: id,
      [SIGNATURE_HEADERS.timestamp]: timestamp,
      [SIGNATURE_HEADERS.nonce]: nonce,
      [SIGNATURE_HEADERS.signature]: sign(secret, { method, path, body: text, timestamp, nonce }),
      ...(text ? { "content-type": "application/json" } : {}),
      ...(session ? { authorization: `Bearer ${session}` } : {}),
    };
    return method === "GET"
      ? request.get(path, { headers, maxRedirects: 0 })
      : request.post(path, { headers, data: text, maxRedirects: 0 });
  };
  const login = await signed("POST", "/api/cli/login", { code: codeOf(uri, 1) });
  expect(login.status()).toBe(200);
  const { session, scopes } = (await login.json()) as { session: string; scopes: string[] };
  expect(scopes).toEqual(["read"]);
  const who = await signed("GET", "/api/cli/whoami", undefined, session);
  expect(who.status()).toBe(200);
  expect(await who.json()).toMatchObject({ role: "support", scopes: ["read"] });

  await pair.getByRole("button", { name: "Done" }).click();
  await expect(pair).toHaveCount(0);
  const row = page.getByTestId(`access-key-row-${id}`);
  await expect(row).toContainText("e2e laptop");
  await expect(row).toContainText("Active");
  page.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Revoke e2e laptop" }).click();
  await expect(row.getByText("Revoked", { exact: true })).toBeVisible();
  await expect(page.getByText("The access key “e2e laptop”")).toBeVisible();
  await shots(page, "cli-auth", "cli-revoked");

  const after = await signed("GET", "/api/cli/whoami", undefined, session);
  expect(after.status()).toBe(401);
  expect(await after.json()).toMatchObject({ error: "UNKNOWN_KEY" });
});

test("a role that requires two-factor sign-in sends a member without an authenticator to enrol first", async ({ page, browser }) => {
  const admin = await browser.newContext({ storageState: storageFor("admin") });
  const adminPage = await admin.newPage();
  const setRequired = async (roles: string[]) => {
    await adminPage.goto("/admin/staff");
    const form = adminPage.getByRole("form", { name: "Roles that require two-factor sign-in" });
    for (const label of ["Administrator", "Operations", "Support", "Compliance"])
      await form.getByLabel(label).setChecked(roles.includes(label));
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toBeVisible();
  };
  const email = `must-${Date.now()}@brokerdesk.test`;
  await createStaffAsAdmin(adminPage, email, { role: "Compliance", password: PASSWORD });
  try {
    await setRequired(["Compliance"]);
    await shots(adminPage, "cli-auth", "admin-staff-two-factor");
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/settings\/security\?required=1$/);
    await expect(page.getByTestId("two-factor-off")).toContainText("Your role requires two-factor sign-in");
    await page.goto("/accounts");
    await expect(page).toHaveURL(/\/settings\/security\?required=1$/);
    // The status page too (its frame is its own, outside the desk's layout).
    await page.goto("/status");
    await expect(page).toHaveURL(/\/settings\/security\?required=1$/);
    // The data routes refuse the same session, not only the pages.
    const refused = await page.request.get("/api/accounts");
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "ENROL_FIRST" });
    await enrolOnPage(page);
    await expect(page.getByTestId("two-factor-on")).toContainText("it cannot be turned off");
    await page.goto("/accounts");
    await expect(page).toHaveURL(/\/accounts$/);
    expect((await page.request.get("/api/accounts")).status()).toBe(200);
  } finally {
    await setRequired([]);
    await admin.close();
  }
});
