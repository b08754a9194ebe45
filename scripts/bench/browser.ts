import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { DEMO_PASSWORD, ROLE_EMAILS, signIn } from "../../e2e/helpers";

/**
 * Headless Chromium with a context signed in to the desk at `base` as the support demo user (the benches read as
 * a person does). The caller closes the browser.
 */
export async function signedInBrowser(
  base: string,
  { args = [], viewport }: { args?: string[]; viewport?: { width: number; height: number } } = {},
): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", ...args],
  });
  try {
    const context = await browser.newContext({ baseURL: base, viewport });
    const page = await context.newPage();
    await signIn(page, ROLE_EMAILS.support, DEMO_PASSWORD);
    await page.getByTestId("current-user").waitFor();
    await page.close();
    return { browser, context };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
