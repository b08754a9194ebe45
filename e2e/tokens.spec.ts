import { expect, test, type APIRequestContext, type Browser, type Page } from "./fixtures";
import { createTokenOnPage as createToken, ROLE_EMAILS, shots, storageFor, type DemoRole } from "./helpers";

/**
 * Settings → Access tokens: a token is made, its secret shown once, listed, checked against GET /api/tokens/me
 * with no session (the token is the credential), and revoked after a confirmation; an admin revokes anyone's.
 */
const signedIn = (browser: Browser, role: DemoRole): Promise<Page> => browser.newPage({ storageState: storageFor(role) });

const rowOf = (page: Page, secret: string) => page.getByTestId(`token-row-${secret.slice(0, 10)}`);

/** GET /api/tokens/me from a client with no cookies at all: the bearer token alone. */
async function whoAmI(api: APIRequestContext, secret: string) {
  return api.get("/api/tokens/me", { headers: { authorization: `Bearer ${secret}` }, maxRedirects: 0 });
}

test.describe("Settings → Access tokens", () => {
  test("a staff member creates a token, sees it once, uses it, and revokes it after confirming", async ({
    browser,
    playwright,
    baseURL,
  }) => {
    const page = await signedIn(browser, "support");
    const api = await playwright.request.newContext({ baseURL });
    const name = `CLI ${Date.now()}`;
    const secret = await createToken(page, name, "Read and write");
    await shots(page, "tokens", "created");

    const row = rowOf(page, secret);
    await expect(row).toContainText(name);
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Never");
    await expect(row.getByText("write", { exact: true })).toBeVisible();

    const ok = await whoAmI(api, secret);
    expect(ok.status()).toBe(200);
    const body = (await ok.json()) as { email: string; role: string; tokenId: string; scopes: string[] };
    expect(body).toMatchObject({ email: ROLE_EMAILS.support, role: "support", scopes: ["read", "write"] });
    expect(body.tokenId).toMatch(/^[0-9a-f-]{36}$/);

    // After a reload the secret is gone for good: only its prefix is listed; the use is.
    await page.reload();
    await expect(rowOf(page, secret)).toContainText("Active");
    await expect(page.getByTestId("new-token-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await expect(rowOf(page, secret)).not.toContainText("Never");

    // Revoking asks first; dismissed, nothing changes.
    page.once("dialog", (d) => {
      expect(d.message()).toContain(`Revoke the token “${name}”`);
      void d.dismiss();
    });
    await rowOf(page, secret).getByRole("button", { name: "Revoke" }).click();
    await expect(rowOf(page, secret)).toContainText("Active");
    expect((await whoAmI(api, secret)).status()).toBe(200);

    page.once("dialog", (d) => void d.accept());
    await rowOf(page, secret).getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByText(`The token “${name}” is revoked.`)).toBeVisible();
    await expect(rowOf(page, secret)).toContainText("Revoked");
    await expect(rowOf(page, secret).getByRole("button", { name: "Revoke" })).toHaveCount(0);

    const refused = await whoAmI(api, secret);
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "UNAUTHENTICATED" });
    expect((await whoAmI(api, "bdk_not-a-token")).status()).toBe(401);
    await api.dispose();
    await page.close();
  });

  test("an admin sees another staff member's token among everyone's and revokes it", async ({ browser, playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    const ops = await signedIn(browser, "operations");
    const name = `Ops bot ${Date.now()}`;
    const secret = await createToken(ops, name);
    expect((await whoAmI(api, secret)).status()).toBe(200);

    const admin = await signedIn(browser, "admin");
    await admin.goto("/settings/tokens");
    await expect(rowOf(admin, secret)).toHaveCount(0);
    await shots(admin, "tokens", "mine-admin");
    await admin.getByRole("link", { name: "Every staff member's" }).click();
    await expect(admin).toHaveURL(/\/settings\/tokens\/all$/);
    const row = rowOf(admin, secret);
    await expect(row).toContainText(ROLE_EMAILS.operations);
    await expect(row).toContainText(name);
    await shots(admin, "tokens", "all");

    admin.once("dialog", (d) => {
      expect(d.message()).toContain(`of ${ROLE_EMAILS.operations}`);
      void d.accept();
    });
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect(row).toContainText("Revoked");
    expect((await whoAmI(api, secret)).status()).toBe(401);

    // The owner's list says so (the live notice, or a reload).
    await ops.reload();
    await expect(rowOf(ops, secret)).toContainText("Revoked");
    await api.dispose();
    await admin.close();
    await ops.close();
  });

  test("everyone's tokens are an administrator's only", async ({ browser }) => {
    const page = await signedIn(browser, "support");
    await page.goto("/settings/tokens");
    await expect(page.getByRole("heading", { name: "Access tokens" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Every staff member's" })).toHaveCount(0);
    expect((await page.goto("/settings/tokens/all"))?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    expect((await page.request.get("/api/tokens/all")).status()).toBe(403);
    await page.close();
  });
});
