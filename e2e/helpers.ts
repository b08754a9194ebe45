import { expect, test, type Locator, type Page, type Request } from "./fixtures";

export const DEMO_PASSWORD = "brokerdesk-demo";
export const ROLE_EMAILS = {
  admin: "admin@brokerdesk.test",
  operations: "ops@brokerdesk.test",
  support: "support@brokerdesk.test",
  compliance: "compliance@brokerdesk.test",
} as const;
export type DemoRole = keyof typeof ROLE_EMAILS;

/** A role's signed-in browser state, per shard (each shard's app signs its sessions with its own secret). */
export const storageFor = (role: DemoRole) => `e2e/.auth/${process.env.E2E_SHARD_NAME ?? "single"}/${role}.json`;

/** A group of tests signed in as `role` (its browser state, `storageFor`). */
export function describeAs(title: string, role: DemoRole, tests: () => void) {
  test.describe(title, () => {
    test.use({ storageState: storageFor(role) });
    tests();
  });
}

/**
 * Holds the answer to the page's first request to `pathname` that `pick` chooses (read in full on the server first)
 * until `meanwhile` has made a change and the tab's live channel has heard of it: the tab then receives a read older
 * than a change it was told of while the read was on its way. `arrived` resolves once it did.
 */
export async function holdResponse(
  page: Page,
  pathname: string,
  meanwhile: () => Promise<void>,
  pick: (request: Request) => Promise<boolean> = async () => true,
): Promise<{ arrived: Promise<void> }> {
  const notices = async () => Number(await page.getByTestId("live-indicator").getAttribute("data-notices"));
  let settle!: (error?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  let held = false;
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      if (held || !(await pick(route.request()))) return route.continue();
      held = true;
      // A failure here fails the test (through what this returns), not the route, which would hang the request.
      try {
        const response = await route.fetch();
        // The tab must hear the change: its live channel open first (a full page load opens it as it hydrates).
        await expect(page.getByTestId("live-indicator")).toContainText("Live");
        const before = await notices();
        await meanwhile();
        await expect.poll(notices).toBeGreaterThan(before);
        await route.fulfill({ response });
        settle();
      } catch (error) {
        await route.abort();
        settle(error);
      }
    },
  );
  return { arrived: done };
}

/**
 * Holds the page's next client-side navigation to `pathname` (its RSC response; not a prefetch, nor the page reading
 * itself again when it has arrived) as `holdResponse`: the page arrives with a read older than a change the tab was
 * told of while no part of the page was there to read again.
 */
export function holdNavigation(page: Page, pathname: string, meanwhile: () => Promise<void>) {
  return holdResponse(
    page,
    pathname,
    meanwhile,
    async (request) => !!(await request.headerValue("rsc")) && !(await request.headerValue("next-router-prefetch")),
  );
}

/** Opens `path` and waits for its heading. */
export async function openPage(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: heading })).toBeVisible();
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * A listing's filter bar once it is interactive (hydrated): what is typed into the server's markup before that is not
 * the bar's. Hydration waits for the page's scripts and its streamed data: with two shards on two slow cores the
 * activities explorer has taken over 10 s to get there (playwright.config.ts's allowance).
 */
export async function filterBarReady(page: Page): Promise<Locator> {
  const bar = page.locator("main form[role=search][data-ready]");
  await expect(bar).toBeVisible();
  return bar;
}

export async function expectSignedIn(page: Page, email: string) {
  await expect(page.getByTestId("current-user")).toContainText(email);
}

/** Creates a staff user through the Admin → Staff page, as the admin demo user. */
export async function createStaffAsAdmin(adminPage: Page, email: string, opts: { role?: string; password?: string } = {}) {
  await adminPage.goto("/admin/staff");
  await adminPage.getByLabel("Name").fill("Test Person");
  await adminPage.getByLabel("Email").fill(email);
  await adminPage.getByLabel("Role", { exact: true }).selectOption({ label: opts.role ?? "Support" });
  await adminPage.getByLabel("Initial password").fill(opts.password ?? "a-long-enough-password");
  await adminPage.getByRole("button", { name: "Create user" }).click();
  await expect(adminPage.getByText(`${email} can now sign in.`)).toBeVisible();
}

/**
 * An account picker's keyboard: types `search` into `field` and waits for `listbox` to answer it (at least two
 * options, each naming it: not the previous search's list, still shown while the search is on its way), then
 * presses ArrowDown `n` times. Answers the account number of the option that is then active, after checking that it
 * is marked selected and is the field's active descendant.
 */
export async function arrowToOption(field: Locator, listbox: Locator, search: string, n: number): Promise<string> {
  await field.fill(search);
  const options = listbox.getByRole("option");
  await expect
    .poll(async () => {
      const texts = await options.allTextContents();
      return texts.length >= 2 && texts.every((t) => t.includes(search));
    })
    .toBe(true);
  for (let i = 0; i < n; i++) await field.press("ArrowDown");
  const active = options.nth(n - 1);
  await expect(active).toHaveAttribute("aria-selected", "true");
  await expect(field).toHaveAttribute("aria-activedescendant", (await active.getAttribute("id"))!);
  return accountNumberOf(active);
}

/**
 * The account number an account picker's option names (its first part): any account, including those other specs
 * open meanwhile, whose numbers are not all of one pattern.
 */
export async function accountNumberOf(option: Locator): Promise<string> {
  return (await option.locator("span").first().textContent())!.trim();
}

/**
 * An account picker's two Escapes, its list open on `typed`: the first closes the list (an active option with it)
 * and keeps what was typed, the second empties the box (the search box's own) and the list stays closed.
 */
export async function escapeTwice(field: Locator, listbox: Locator, typed: string) {
  await field.press("Escape");
  await expect(listbox).toHaveCount(0);
  await expect(field).toHaveAttribute("aria-expanded", "false");
  await expect(field).not.toHaveAttribute("aria-activedescendant");
  await expect(field).toHaveValue(typed);

  await field.press("Escape");
  await expect(field).toHaveValue("");
  await expect(field).toHaveAttribute("aria-expanded", "false");
  await expect(listbox).toHaveCount(0);
}

/**
 * An account picker keeps its list while the next search is on its way, and takes the click: with `option` shown,
 * types `next` into `field` while its search (the requests matching `url`, a `page.route` pattern) is held at the
 * network, checks that "Searching…" shows and `option` has not moved, runs `whileHeld` (a screenshot, say) and clicks
 * `option`; then the search goes on to the server.
 */
export async function clickWhileSearchHeld(
  page: Page,
  search: { field: Locator; option: Locator; next: string; url: string },
  whileHeld?: () => Promise<void>,
) {
  const { field, option, next, url } = search;
  const before = await option.boundingBox();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  await field.fill(next);
  await expect(page.getByText("Searching…")).toBeVisible();
  expect(await option.boundingBox()).toEqual(before);
  await whileHeld?.();
  await option.click();
  release();
}

/** Full-page screenshots at 1280 and 1920 px into test-results/<dir>/<name>-<width>.png (to look at), then back to 1280. */
export async function shots(page: Page, dir: string, name: string) {
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * Texts cut off under `root` (a start of each): an element that clips (overflow hidden or clip) holding more than
 * its width, or a panel (section) something sticks out of. Screen-reader-only text (1 px boxes) is not counted.
 */
export async function cutOff(root: Locator): Promise<string[]> {
  return root.evaluateAll((roots) =>
    roots
      .flatMap((r) => [r, ...Array.from(r.querySelectorAll("*"))])
      .filter((el) => {
        const s = getComputedStyle(el);
        const clips = s.overflowX === "hidden" || s.overflowX === "clip" || el.tagName === "SECTION";
        return clips && el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? "").trim().slice(0, 60)}`),
  );
}

/**
 * Picks `day` through a date field's calendar button (`DateInput`): the button opens the browser's picker on the
 * hidden date input, and what the picker sets is what this writes there (the popup itself is the browser's).
 */
export async function pickFromCalendar(field: Locator, day: string) {
  const box = field.locator("xpath=..");
  await box.getByRole("button", { name: "Open calendar" }).click();
  await box.locator("input[type=date]").evaluate((el: HTMLInputElement, v) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(el, v);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, day);
  await expect(field).toHaveValue(day);
}

/**
 * The desk's id of an AAPL order of the account, once the event consumer has recorded it and completed it with its
 * detail call (events carry no prices): read through the blotter's own API.
 */
export async function deskOrderId(page: Page, account: string, clientOrderId: string, symbol = "AAPL"): Promise<string> {
  let found = "";
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/orders?account=${account}&symbol=${symbol}&size=500`);
        const rows = ((await res.json()) as { rows: { id: string; clientOrderId: string; limitPrice: string | null }[] }).rows;
        found = rows.find((r) => r.clientOrderId === clientOrderId && r.limitPrice !== null)?.id ?? "";
        return found;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return found;
}

/** Creates a staff access token on Settings → Access tokens as the page's user; answers its secret, shown once. */
export async function createTokenOnPage(page: Page, name: string, access: "Read only" | "Read and write" = "Read only"): Promise<string> {
  await page.goto("/settings/tokens");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Access", { exact: true }).selectOption({ label: access });
  await page.getByLabel("Expires after").selectOption({ label: "7 days" });
  await page.getByRole("button", { name: "Create token" }).click();
  const notice = page.getByTestId("new-token-secret");
  await expect(notice).toContainText("you will not see it again");
  await expect(notice).toContainText(name);
  const secret = await notice.getByLabel("Token secret").inputValue();
  expect(secret).toMatch(/^bdk_[A-Za-z0-9_-]{43}$/);
  return secret;
}
