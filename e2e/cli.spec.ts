import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "./fixtures";
import { Secret, TOTP } from "otpauth";
import { disableAllRules, holdCashJournalsAbove, JOURNAL_TARGET } from "./approvals-helpers";
import { sandboxCall } from "./accounts-helpers";
import { createStaffAsAdmin, deskOrderId, expectSignedIn, signIn, storageFor } from "./helpers";
import { parseCsv } from "../tests/helpers/csv";
import { usStockOrder } from "../tests/helpers/orders";

/**
 * The `brokerdesk` command (cli/bin/brokerdesk.mjs, as a person runs it) against the started app and its sandbox:
 * an operations user enrols an authenticator and makes an access key on the pages; a wrong code logs nobody in
 * (exit 3); with the right one the command line reads accounts, orders and activities (CSV parsed back and checked
 * against the JSON and the sandbox), replaces and cancels a customer's order, keeps a watchlist, is refused a tool
 * the role lacks (exit 4) and has cash journals held by an approval rule (exit 5). A second profile, an
 * administrator's, chosen by --profile and by BROKERDESK_PROFILE, approves one on the command line and rejects
 * another; a third is approved on the page. Revoking the key on the page logs the command line out (exit 3).
 */

const BIN = path.resolve("cli/bin/brokerdesk.mjs");
const PASSWORD = "a-long-enough-password";
const run = Date.now().toString(36);

type Cli = { code: number; stdout: string; stderr: string; json: <T = Record<string, unknown>>() => T };

/** A staff member of their own with an authenticator enrolled on Settings → Security and an access key made on Settings → Command line. */
async function staffWithKey(page: Page, browser: Browser, role: "Operations" | "Administrator", label: string) {
  const admin = await (await browser.newContext({ storageState: storageFor("admin") })).newPage();
  const email = `cli-${label}-${run}@brokerdesk.test`;
  await createStaffAsAdmin(admin, email, { role, password: PASSWORD });
  await admin.context().close();
  await signIn(page, email, PASSWORD);
  await expectSignedIn(page, email);
  await page.goto("/settings/security");
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const enrolment = page.getByTestId("two-factor-pending");
  const authenticator = new TOTP({
    secret: Secret.fromBase32(new URL(await enrolment.getByLabel("otpauth URI", { exact: true }).inputValue()).searchParams.get("secret")!),
  });
  const code = (steps: number) => authenticator.generate({ timestamp: Date.now() + steps * 30_000 });
  await enrolment.getByLabel("Code from the app").fill(code(0));
  await enrolment.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByTestId("two-factor-on")).toBeVisible();

  await page.goto("/settings/cli");
  await page.getByLabel("Name", { exact: true }).fill(`cli ${label}`);
  await page.getByLabel("Access", { exact: true }).selectOption({ label: "Read and write" });
  await page.getByRole("button", { name: "Create access key" }).click();
  const pair = page.getByTestId("new-access-key");
  const keyId = await pair.getByLabel("Access key id", { exact: true }).inputValue();
  const secret = await pair.getByLabel("Secret key", { exact: true }).inputValue();
  await pair.getByRole("button", { name: "Done" }).click();
  return { email, keyId, secret, code };
}

/** A table's rows as objects by its header. */
const csvObjects = (text: string): Record<string, string>[] => {
  expect(text.startsWith("\uFEFF")).toBe(true);
  const [header, ...rows] = parseCsv(text.slice(1));
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
};

test("the command line against the started desk: login with a code, reads, writes, two profiles, a held journal, a revoked key", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(480_000);
  const configDir = mkdtempSync(path.join(tmpdir(), "brokerdesk-e2e-"));
  const cli = (args: string[], stdin = "", env: Record<string, string> = {}): Cli => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      input: stdin,
      encoding: "utf8",
      env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: configDir, BROKERDESK_CONFIG_DIR: configDir, ...env },
      timeout: 60_000,
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
  };
  const admin = await (await browser.newContext({ storageState: storageFor("admin") })).newPage();
  const ops = await staffWithKey(page, browser, "Operations", "ops");

  // A wrong code: exit 3, WRONG_CODE, and no profile is kept.
  const valid = [-1, 0, 1, 2].map((step) => ops.code(step));
  const wrong = ["000000", "111111", "222222", "333333", "444444"].find((c) => !valid.includes(c))!;
  const refusedLogin = cli(["login", "--desk", baseURL!, "--access-key", ops.keyId, "--code", wrong], "", {
    BROKERDESK_SECRET_KEY: ops.secret,
  });
  expect(refusedLogin.code, refusedLogin.stderr).toBe(3);
  expect(JSON.parse(refusedLogin.stderr.trim())).toMatchObject({ error: "WRONG_CODE", status: 401 });
  expect(cli(["profile", "list"]).json()).toMatchObject({ rows: [] });

  // Login: the key on the command line, the secret and the next step's code (this step's went to the enrolment) piped.
  const login = cli(["login", "--desk", baseURL!, "--access-key", ops.keyId], `${ops.secret}\n${ops.code(1)}\n`);
  expect(login.code, login.stderr).toBe(0);
  expect(login.json()).toMatchObject({ email: ops.email, role: "operations", scopes: ["read", "write"] });
  expect(cli(["whoami"]).json()).toMatchObject({ email: ops.email, role: "operations" });

  // Reads: an account found by its number, its master account from its summary.
  const found = cli(["accounts", "list", "--q", JOURNAL_TARGET, "--by", "account_number"]);
  expect(found.code, found.stderr).toBe(0);
  const target = found.json<{ rows: { account_id: string; account_number: string }[] }>().rows[0];
  expect(target.account_number).toBe(JOURNAL_TARGET);
  const summary = cli(["accounts", "get", target.account_id]);
  expect(summary.code, summary.stderr).toBe(0);
  const master = summary.json<{ account: { belong_account_id: string } }>().account.belong_account_id;

  // Support's job from a terminal: a customer's own order at the sandbox, replaced then cancelled with a reason.
  const coid = `e2eCli${run}`;
  const placed = sandboxCall("POST", "/broker/orders/place", {
    body: { account_id: target.account_id, new_orders: [usStockOrder({ client_order_id: coid, quantity: "3", limit_price: "40.00" })] },
  });
  expect(placed.status).toBe(200);
  const orderId = await deskOrderId(page, target.account_id, coid);
  const atSandbox = () =>
    sandboxCall("GET", "/broker/orders/get", { query: { account_id: target.account_id, client_order_id: coid } }).body.orders[0];

  // The account's orders as JSON and as the desk's CSV: the same rows.
  const asJson = cli(["orders", "list", "--account", target.account_id]);
  expect(asJson.code, asJson.stderr).toBe(0);
  const jsonRows = asJson.json<{ rows: { id: string; clientOrderId: string }[] }>().rows;
  expect(jsonRows.map((r) => r.id)).toContain(orderId);
  const asCsv = cli(["orders", "list", "--account", target.account_id, "--output", "csv"]);
  expect(asCsv.code, asCsv.stderr).toBe(0);
  expect(asCsv.stdout).toContain("\r\n");
  const csvRows = csvObjects(asCsv.stdout);
  expect(csvRows.map((r) => r.id)).toEqual(jsonRows.map((r) => r.id));
  expect(csvRows.find((r) => r.id === orderId)?.clientOrderId).toBe(coid);

  // A destructive write asks first; with no terminal to answer it is refused (exit 2) unless --yes.
  const replace = ["orders", "replace", orderId, "--limit-price", "40.50", "--reason-code", "CUSTOMER_REQUEST"];
  const unasked = cli(replace);
  expect(unasked.code).toBe(2);
  expect(JSON.parse(unasked.stderr.trim())).toMatchObject({ error: "USAGE" });
  const replaced = cli([...replace, "--yes"]);
  expect(replaced.code, replaced.stderr).toBe(0);
  await expect.poll(() => atSandbox().limit_price).toBe("40.50");
  const cancel = ["orders", "cancel", orderId, "--reason-code", "OTHER", "--reason-text", "customer called to cancel"];
  const dry = cli([...cancel, "--dry-run"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(atSandbox().status).not.toBe("CANCELLED");
  const cancelled = cli([...cancel, "--yes"]);
  expect(cancelled.code, cancelled.stderr).toBe(0);
  await expect.poll(() => atSandbox().status).toBe("CANCELLED");

  // Every activity of the account as CSV: the sandbox's, in its order.
  const exported = cli(["activities", "export", "--account", JOURNAL_TARGET]);
  expect(exported.code, exported.stderr).toBe(0);
  const upstream = sandboxCall("GET", "/broker/activities/cash-activities/list", {
    query: { account_id: target.account_id, page_size: "200" },
  }).body.data as { id: string }[];
  expect(csvObjects(exported.stdout).map((r) => r.id)).toEqual(upstream.map((a) => a.id));

  // Market data and a watchlist by the spec's skill names.
  const movers = cli(["stock", "gainers-losers", "--direction", "DESC"]);
  expect(movers.code, movers.stderr).toBe(0);
  const watchlist = cli(["watchlist", "create", "--name", `CLI ${run}`]);
  expect(watchlist.code, watchlist.stderr).toBe(0);
  const wid = watchlist.json<{ watchlist_id: string }>().watchlist_id;
  const add = cli(["watchlist", "instruments-add", "--watchlist-id", wid, "--instruments", '[{"symbol":"AAPL","category":"US_STOCK"}]']);
  expect(add.code, add.stderr).toBe(0);
  const members = cli(["watchlist", "instruments-list", "--watchlist-id", wid]);
  expect(members.json<{ instruments: { symbol: string }[] }>().instruments.map((i) => i.symbol)).toEqual(["AAPL"]);
  expect(cli(["watchlist", "delete", "--watchlist-id", wid, "--yes"]).code).toBe(0);
  expect(cli(["stream", "health"]).json()).toHaveProperty("connected");
  const status = cli(["status"]);
  expect(status.code, status.stderr).toBe(0);
  expect(status.json()).toMatchObject({ health: "ok", session: "valid", stream: expect.any(Object) });

  // Operations does not read the alert queue: the desk's 403 is exit 4.
  const alerts = cli(["alerts", "list"]);
  expect(alerts.code).toBe(4);
  expect(JSON.parse(alerts.stderr.trim())).toMatchObject({ status: 403 });

  // Journals above the rule's threshold are held: exit 5 with the approval on stdout.
  await holdCashJournalsAbove(admin, "10000");
  await expect(admin.getByText("Rule created.")).toBeVisible();
  const hold = (amount: string) => {
    const journal = cli([
      "movements",
      "cash-journal",
      "--from-account",
      master,
      "--to-account",
      target.account_id,
      "--currency",
      "USD",
      "--amount",
      amount,
    ]);
    expect(journal.code, journal.stderr).toBe(5);
    const held = journal.json<{ status: string; approvalId: string }>();
    expect(held.status).toBe("held");
    return held.approvalId;
  };
  const [onPage, onCli, rejected] = [hold("25000.00"), hold("25001.00"), hold("25002.00")];
  const listed = cli(["movements", "list", "--account", JOURNAL_TARGET, "--status", "AWAITING_APPROVAL"]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.json<{ rows: unknown[] }>().rows.length).toBeGreaterThanOrEqual(3);
  // The maker may not approve their own.
  expect(cli(["approvals", "approve", onCli]).code).not.toBe(0);

  // A second profile, an administrator's, on the same machine; chosen by --profile and by the environment.
  const checkerPage = await (await browser.newContext()).newPage();
  const checker = await staffWithKey(checkerPage, browser, "Administrator", "checker");
  const second = cli(
    ["login", "--profile", "checker", "--desk", baseURL!, "--access-key", checker.keyId],
    `${checker.secret}\n${checker.code(1)}\n`,
  );
  expect(second.code, second.stderr).toBe(0);
  expect(cli(["profile", "list"]).json<{ rows: unknown[] }>().rows).toEqual([
    expect.objectContaining({ name: "default", current: true, session: "valid" }),
    expect.objectContaining({ name: "checker", current: false, session: "valid" }),
  ]);
  expect(cli(["whoami"]).json()).toMatchObject({ email: ops.email });
  expect(cli(["whoami", "--profile", "checker"]).json()).toMatchObject({ email: checker.email, role: "admin" });
  const waiting = cli(["approvals", "list", "--profile", "checker"])
    .json<{ rows: { id: string }[] }>()
    .rows.map((r) => r.id);
  expect(waiting).toEqual(expect.arrayContaining([onPage, onCli, rejected]));
  const approved = cli(["approvals", "approve", onCli], "", { BROKERDESK_PROFILE: "checker" });
  expect(approved.code, approved.stderr).toBe(0);
  expect(approved.json()).toMatchObject({ status: "executed" });
  const refused = cli(["approvals", "reject", rejected, "--reason", "not agreed with the customer", "--yes", "--profile", "checker"]);
  expect(refused.code, refused.stderr).toBe(0);
  expect(refused.json()).toMatchObject({ status: "rejected" });

  // The third, on the page.
  await admin.goto(`/approvals/${onPage}`);
  await expect(admin.getByTestId("approval-summary")).toContainText("25,000.00 USD");
  admin.once("dialog", (d) => void d.accept());
  await admin.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByTestId("approval-result")).toContainText("Executed");
  await disableAllRules(admin);

  // Revoking the key on the page ends the command line's session: exit 3; the other profile goes on.
  await page.goto("/settings/cli");
  page.once("dialog", (d) => void d.accept());
  await page.getByTestId(`access-key-row-${ops.keyId}`).getByRole("button", { name: "Revoke cli ops" }).click();
  await expect(page.getByTestId(`access-key-row-${ops.keyId}`).getByText("Revoked", { exact: true })).toBeVisible();
  const after = cli(["whoami"]);
  expect(after.code).toBe(3);
  expect(JSON.parse(after.stderr.trim())).toMatchObject({ status: 401 });
  expect(cli(["whoami", "--profile", "checker"]).code).toBe(0);
  await admin.context().close();
  await checkerPage.context().close();
});
