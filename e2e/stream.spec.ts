import { expect, test } from "./fixtures";
import { READY_MS } from "../playwright.config";
import { sandboxCall } from "./accounts-helpers";
import { cutOff, describeAs, shots } from "./helpers";
import { usStockOrder } from "../tests/helpers/orders";

/**
 * Live updates and the event stream's health, against the e2e sandbox. The webServer runs with
 * EVENTS_ALERT_AFTER_MS=3000 and EVENTS_BACKOFF_MAX_MS=1000, so an outage shows within seconds.
 */
const MARGIN_ACCOUNT = () => {
  const res = sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } });
  // A MARGIN account trading US stocks (the seed has several).
  const a = res.body.data.find(
    (x: { account_type?: string; account_status?: string }) => x.account_type === "MARGIN" && x.account_status === "ACTIVE",
  );
  return a.account_id as string;
};

describeAs("live updates", "operations", () => {
  test("a signed-in page receives a change notice of an order filled at the sandbox", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("live-indicator")).toHaveText("Live");
    expect(sandboxCall("POST", "/sandbox/market/clock", { body: { now: "2026-11-17T15:00:00Z" } }).status).toBe(200);
    try {
      expect(sandboxCall("POST", "/sandbox/market/price", { body: { symbol: "KO", price: "60.00" } }).status).toBe(200);
      const account = MARGIN_ACCOUNT();
      // The listener is in place before the order (the sandbox call below blocks this process while it runs).
      await page.evaluate(() => {
        const w = window as unknown as { heard: number[] };
        w.heard = [];
        window.addEventListener("brokerdesk:change", (e) => {
          if ((e as CustomEvent<{ topics: string[] }>).detail.topics.includes("order")) w.heard.push(Date.now());
        });
      });
      const placed = sandboxCall("POST", "/broker/orders/place", {
        body: {
          account_id: account,
          new_orders: [usStockOrder({ client_order_id: `e2e${Date.now()}`, symbol: "KO", limit_price: "61.00" })],
        },
      });
      expect(placed.status).toBe(200);
      // From the moment the sandbox answered the placement (the order filled in that call) to the browser's notice:
      // written down, not bounded (the way goes through the consumer, the books and the live channel's 250 ms window
      // on two cores shared with the other shard; `npm run load` measures it).
      const heardAt = await (
        await page.waitForFunction(() => (window as unknown as { heard: number[] }).heard[0], undefined, { timeout: READY_MS })
      ).jsonValue();
      test.info().annotations.push({ type: "fill to the browser's notice", description: `${heardAt - placed.at} ms` });
    } finally {
      sandboxCall("POST", "/sandbox/market/clock", { body: { now: null } });
    }
  });
});

describeAs("Admin → Event stream", "admin", () => {
  test("shows connected, then down while the upstream refuses the stream, then connected again; the banner comes and goes", async ({
    page,
  }) => {
    await page.goto("/admin/stream");
    const state = page.getByTestId("stream-state");
    await expect(state).toHaveAttribute("data-state", "connected", { timeout: 20_000 });
    await expect(page.getByTestId("stream-banner")).toHaveCount(0);

    expect(sandboxCall("POST", "/sandbox/events/drop", { body: { refuse_ms: 9_000 } }).status).toBe(200);
    await expect(state).toHaveAttribute("data-state", "down", { timeout: 8_000 });
    await expect(page.getByTestId("stream-banner")).toBeVisible({ timeout: 10_000 });
    await expect(page.getByTestId("stream-banner")).toContainText("Upstream events: down");
    await page.screenshot({ path: "test-results/stream-down-1280.png", fullPage: true });
    // The error's text (and the consumer's name) read whole, wrapped, at 1280 px.
    expect(await cutOff(page.locator("main"))).toEqual([]);
    await shots(page, "stream", "down");

    await expect(state).toHaveAttribute("data-state", "connected", { timeout: 20_000 });
    await expect(page.getByTestId("stream-banner")).toHaveCount(0, { timeout: 10_000 });
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.screenshot({ path: "test-results/stream-connected-1920.png", fullPage: true });
  });

  test("reconnect and reconciliation requests are carried out and audited", async ({ page }) => {
    await page.goto("/admin/stream");
    await expect(page.getByTestId("stream-state")).toHaveAttribute("data-state", "connected", { timeout: 20_000 });
    await page.getByRole("button", { name: "Run reconciliation" }).click();
    await expect(page.getByText("Reconciliation requested")).toBeVisible();
    await expect(page.getByRole("region", { name: "Last reconciliation" })).toContainText("admin@brokerdesk.test");
    await expect(page.getByRole("region", { name: "Last reconciliation" })).toContainText("done");
    await page.goto("/audit?action=stream.reconcile");
    await expect(page.getByTestId("audit-row").first()).toContainText("success");
  });
});

describeAs("Event stream as operations", "operations", () => {
  test("readable, with no reconnect or reconciliation control", async ({ page }) => {
    await page.goto("/admin/stream");
    await expect(page.getByTestId("stream-state")).toBeVisible();
    await expect(page.getByRole("button", { name: "Reconnect now" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Run reconciliation" })).toHaveCount(0);
  });
});

describeAs("Event stream as support", "support", () => {
  test("refused: the page is a 403 and the health route answers 403", async ({ page }) => {
    const res = await page.goto("/admin/stream");
    expect(res?.status()).toBe(403);
    expect((await page.request.get("/api/events/health")).status()).toBe(403);
  });
});
