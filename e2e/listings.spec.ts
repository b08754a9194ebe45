import { expect, test } from "./fixtures";
import { storageFor } from "./helpers";
import { LISTINGS } from "./listing-checks";

/**
 * Every listing (`LISTINGS`, as the role its own spec checks it as) renders its controls once. From the first byte of
 * a full load until the page has settled, a MutationObserver counts each control (heading, input, select, button:
 * outside the shell, table bodies and dialogs), and no control may ever stand in the document twice unless it does at
 * the end too (a control that is there once and then gone, or renamed, as a select whose options arrive, is no copy).
 * A streamed page whose Suspense boundary is rendered again on the client before it hydrates leaves the server's copy
 * in a hidden element beside the client's for a moment: that is the defect this catches.
 */

// The defect was a race (the live channel's first message against the batched reveal) seen in about half the loads.
const LOADS = 6;

declare global {
  interface Window {
    __copies: Record<string, number>;
    __scanCopies: () => Record<string, number>;
  }
}

for (const { path, role } of Object.values(LISTINGS)) {
  test.describe(`${path} as ${role}`, () => {
    test.use({ storageState: storageFor(role) });

    test(`${path} renders each of its controls once, from the first byte to settled`, async ({ page }) => {
      await page.addInitScript(() => {
        const key = (el: Element) =>
          `${el.tagName}:${el.getAttribute("aria-label") ?? el.getAttribute("name") ?? el.getAttribute("placeholder") ?? el.textContent?.trim().slice(0, 40)}`;
        window.__copies = {};
        window.__scanCopies = () => {
          const counts: Record<string, number> = {};
          for (const el of document.querySelectorAll("h1, input, select, button")) {
            if (el.closest("aside, header, tbody, [role=dialog]")) continue;
            const k = key(el);
            counts[k] = (counts[k] ?? 0) + 1;
          }
          for (const [k, n] of Object.entries(counts)) window.__copies[k] = Math.max(window.__copies[k] ?? 0, n);
          return counts;
        };
        new MutationObserver(() => window.__scanCopies()).observe(document, { childList: true, subtree: true });
      });
      for (let load = 0; load < LOADS; load++) {
        await page.goto(path);
        await expect(page.locator("main h1")).toBeVisible();
        // Hydrated (the header's mark turns Live from an effect), then streamed content revealed in batches within a few
        // hundred milliseconds of arriving: settled however slowly a loaded machine got there.
        await expect(page.getByTestId("live-indicator")).toHaveText("Live");
        await page.waitForTimeout(1000);
        const { most, settled } = await page.evaluate(() => ({ most: window.__copies, settled: window.__scanCopies() }));
        const extra = Object.entries(most)
          .filter(([k, n]) => n > Math.max(1, settled[k] ?? 0))
          .map(([k, n]) => `${k} ×${n} (settled ×${settled[k] ?? 0})`);
        expect(extra, `controls that stood in the page twice, more often than once settled (load ${load + 1})`).toEqual([]);
        expect(Object.keys(settled).length).toBeGreaterThan(0);
      }
    });
  });
}
