import { test as base } from "@playwright/test";

export { expect } from "@playwright/test";
export type { APIRequestContext, Browser, Locator, Page, Request } from "@playwright/test";

/**
 * Playwright's `test`, with one check after each test: a browser context the test opened (`browser.newContext`,
 * `browser.newPage`) is closed by the end of it. One left open stays in the shard's browser for every later test, its
 * page still live; a full-page screenshot in a later spec once hung behind such a page until the test's timeout.
 * Specs import `test`, `expect` and the types they name from here.
 */
export const test = base.extend<{ closesWhatItOpens: void }>({
  closesWhatItOpens: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      const left = browser.contexts().filter((c) => !before.has(c));
      if (left.length === 0) return;
      const urls = left.flatMap((c) => c.pages().map((p) => p.url()));
      await Promise.all(left.map((c) => c.close()));
      throw new Error(`The test left ${left.length} browser context(s) open (${urls.join(", ") || "no page"}): close what a test opens.`);
    },
    { auto: true },
  ],
});
