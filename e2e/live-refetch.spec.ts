import { expect, test, type Page } from "./fixtures";
import { holdNavigation, storageFor } from "./helpers";

/**
 * A busy stream of changes does not make an open list read its page on every notice: the server sends a reader at
 * most one notice every 250 ms and the page reads again at most once a second (lib/throttle.ts), the last change
 * still shown. A list whose channel was down reads its page again when the channel is back; one whose channel first
 * connects after a change the page's own read missed reads it then, and so does one that arrives after the notice.
 */
test.use({ storageState: storageFor("compliance") });

/** The trail's newest entry, as the desk answers now. */
const newestEntry = async (page: Page) =>
  ((await (await page.request.get("/api/audit?size=1")).json()) as { rows: { seq: number; action: string }[] }).rows[0];

/** The link of entry `seq` in the trail's top row. */
const onTop = (page: Page, seq: number) =>
  page
    .getByTestId("audit-row")
    .first()
    .getByRole("link", { name: `Entry ${seq}`, exact: true });

test("the audit trail reads its page at most once a second while entries stream in, and ends on the newest", async ({ page }) => {
  await page.goto("/audit");
  await expect(page.getByTestId("live-indicator")).toHaveText("Live");
  await expect(page.getByTestId("audit-row").first()).toBeVisible();

  const reads: number[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/audit") reads.push(Date.now());
  });
  // Twenty audited exports, one every 100 ms or so: twenty audit entries, each announced on the live channel.
  const started = Date.now();
  for (let i = 0; i < 20; i++) {
    const res = await page.request.get(`/api/audit/export?action=live-refetch-${i}`);
    expect(res.status()).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
  }
  const streamed = Date.now() - started;
  // The newest entry (the last export's) is on top once the trailing read has run.
  const newest = await newestEntry(page);
  expect(newest.action).toBe("audit.export");
  await expect(onTop(page, newest.seq)).toBeVisible({
    timeout: 10_000,
  });
  await page.waitForTimeout(1_500); // a read still due would have started by now
  const during = reads.filter((t) => t >= started);
  // One read as the first notice arrives, then at most one a second, and the trailing one; one more allowed for a
  // notice that reached the page late on a loaded machine. Without the tab's throttle: 11 reads in 2.6 s.
  expect(during.length).toBeGreaterThanOrEqual(2);
  expect(during.length, `${during.length} reads in ${streamed} ms of notices`).toBeLessThanOrEqual(Math.ceil(streamed / 1_000) + 3);
});

test("a list that missed notices while its live channel was down reads its page again when the channel is back", async ({ page }) => {
  // The tab cannot reach the live channel (a network blip, the desk restarting behind its balancer): no notice
  // reaches it, and the channel keeps trying.
  const channel = "**/api/live*";
  let refused = 0;
  await page.route(channel, (route) => (refused++, route.abort()));
  await page.goto("/audit");
  const live = page.getByTestId("live-indicator");
  await expect(live).toHaveText("Offline");
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  // The channel opens once the page is interactive, and "Offline" is also what the page says before that: the change
  // below must come after a try that failed (a channel's first connection follows the page's own read, no more).
  await expect.poll(() => refused).toBeGreaterThan(0);
  const res = await page.request.get("/api/audit/export?action=while-offline");
  expect(res.status()).toBe(200);
  const newest = await newestEntry(page);

  // Back: the channel says it is ready, and the list reads what it missed.
  await page.unroute(channel);
  await expect(live).toHaveText("Live");
  await expect(onTop(page, newest.seq)).toBeVisible();
});

test("a change made after the page's read and before its live channel's first connection shows once the channel is up", async ({
  page,
}) => {
  // The channel's first request is held (a slow network, a busy desk): the page has read its list, the channel has
  // not yet subscribed, and a change made meanwhile reaches no one.
  const channel = "**/api/live*";
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let asked = 0;
  await page.route(channel, async (route) => {
    asked++;
    await released;
    await route.continue();
  });
  await page.goto("/audit");
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  await expect.poll(() => asked).toBeGreaterThan(0);
  const res = await page.request.get("/api/audit/export?action=before-first-connection");
  expect(res.status()).toBe(200);
  const newest = await newestEntry(page);
  await expect(onTop(page, newest.seq)).toBeHidden();

  // The channel connects: its ready says the trail changed since the page began to load, and the list reads again.
  release();
  await expect(page.getByTestId("live-indicator")).toHaveText("Live");
  await expect(onTop(page, newest.seq)).toBeVisible();
});

test("a change announced after the page's read and before the page is on screen shows once it is", async ({ page }) => {
  // A page reached from another one: its list is read on the server and travels to the browser, whose live channel
  // is open. Held here (a slow network, a busy tab) until a change made after the read has been announced: the
  // notice comes while no list of the trail is in the tab to read again, and the page arrives with the older read.
  await page.goto("/activities");
  await expect(page.getByTestId("live-indicator")).toHaveText("Live");
  let made: number | undefined;
  const { arrived } = await holdNavigation(page, "/audit", async () => {
    expect((await page.request.get("/api/audit/export?action=before-the-page-arrived")).status()).toBe(200);
    made = (await newestEntry(page)).seq;
  });
  await page.getByRole("navigation").getByRole("link", { name: "Audit trail" }).click();
  await arrived;
  await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  await expect(onTop(page, made!)).toBeVisible();
});
