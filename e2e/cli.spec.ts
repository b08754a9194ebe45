import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { disableAllRules, holdCashJournalsAbove, JOURNAL_TARGET } from "./approvals-helpers";
import { createStaffAsAdmin, expectSignedIn, signIn, storageFor } from "./helpers";

/**
 * The `brokerdesk` command (cli/bin/brokerdesk.mjs, as a person runs it) against the started app and its sandbox:
 * an operations user enrols an authenticator and makes an access key on the pages, logs the command line in with a
 * code, reads accounts and orders (CSV as the desk writes it), is refused a tool their role lacks (exit 4), has a
 * cash journal held by an approval rule (exit 5) that an administrator then approves on the page, and is logged out
 * by revoking the key on the page (exit 3).
 */

const BIN = path.resolve("cli/bin/brokerdesk.mjs");
const PASSWORD = "a-long-enough-password";
const run = Date.now().toString(36);

type Cli = { code: number; stdout: string; stderr: string; json: <T = Record<string, unknown>>() => T };

test("the command line against the started desk: login with a code, reads, a refusal, a held journal, a revoked key", async ({
  page,
  browser,
  baseURL,
}) => {
  const configDir = mkdtempSync(path.join(tmpdir(), "brokerdesk-e2e-"));
  const cli = (args: string[], stdin = ""): Cli => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      input: stdin,
      encoding: "utf8",
      env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: configDir, BROKERDESK_CONFIG_DIR: configDir },
      timeout: 60_000,
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
  };

  // An operations user of their own, enrolled on Settings → Security with a code computed from the page's URI.
  const admin = await (await browser.newContext({ storageState: storageFor("admin") })).newPage();
  const email = `cli-${run}@brokerdesk.test`;
  await createStaffAsAdmin(admin, email, { role: "Operations", password: PASSWORD });
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

  // An access key on Settings → Command line.
  await page.goto("/settings/cli");
  await page.getByLabel("Name", { exact: true }).fill("cli e2e");
  await page.getByLabel("Access", { exact: true }).selectOption({ label: "Read and write" });
  await page.getByRole("button", { name: "Create access key" }).click();
  const pair = page.getByTestId("new-access-key");
  const keyId = await pair.getByLabel("Access key id", { exact: true }).inputValue();
  const secret = await pair.getByLabel("Secret key", { exact: true }).inputValue();
  await pair.getByRole("button", { name: "Done" }).click();

  // Login: the key on the command line, the secret and the next step's code (this step's went to the enrolment) piped.
  const login = cli(["login", "--desk", baseURL!, "--access-key", keyId], `${secret}\n${code(1)}\n`);
  expect(login.code, login.stderr).toBe(0);
  expect(login.json()).toMatchObject({ email, role: "operations", scopes: ["read", "write"] });
  expect(cli(["whoami"]).json()).toMatchObject({ email, role: "operations" });

  // Reads: an account found by its number, its master account from its summary; orders as the desk's CSV.
  const found = cli(["accounts", "list", "--q", JOURNAL_TARGET, "--by", "account_number"]);
  expect(found.code, found.stderr).toBe(0);
  const target = found.json<{ rows: { account_id: string; account_number: string }[] }>().rows[0];
  expect(target.account_number).toBe(JOURNAL_TARGET);
  const summary = cli(["accounts", "get", target.account_id]);
  expect(summary.code, summary.stderr).toBe(0);
  const master = summary.json<{ account: { belong_account_id: string } }>().account.belong_account_id;
  const orders = cli(["orders", "list", "--output", "csv"]);
  expect(orders.code, orders.stderr).toBe(0);
  expect(orders.stdout.startsWith("\uFEFF")).toBe(true);
  expect(orders.stdout).toContain("\r\n");
  const status = cli(["status"]);
  expect(status.code, status.stderr).toBe(0);
  expect(status.json()).toMatchObject({ health: "ok", session: "valid", stream: expect.any(Object) });

  // Operations does not read the alert queue: the desk's 403 is exit 4.
  const alerts = cli(["alerts", "list"]);
  expect(alerts.code).toBe(4);
  expect(JSON.parse(alerts.stderr.trim())).toMatchObject({ status: 403 });

  // A journal above the rule's threshold is held: exit 5 with the approval on stdout; the administrator approves it.
  await holdCashJournalsAbove(admin, "10000");
  await expect(admin.getByText("Rule created.")).toBeVisible();
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
    "25000.00",
  ]);
  expect(journal.code, journal.stderr).toBe(5);
  const held = journal.json<{ status: string; approvalId: string }>();
  expect(held.status).toBe("held");
  await admin.goto(`/approvals/${held.approvalId}`);
  await expect(admin.getByTestId("approval-summary")).toContainText("25,000.00 USD");
  admin.once("dialog", (d) => void d.accept());
  await admin.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByTestId("approval-result")).toContainText("Executed");
  await disableAllRules(admin);

  // Revoking the key on the page ends the command line's session: exit 3.
  await page.goto("/settings/cli");
  page.once("dialog", (d) => void d.accept());
  await page.getByTestId(`access-key-row-${keyId}`).getByRole("button", { name: "Revoke cli e2e" }).click();
  await expect(page.getByTestId(`access-key-row-${keyId}`).getByText("Revoked", { exact: true })).toBeVisible();
  const after = cli(["whoami"]);
  expect(after.code).toBe(3);
  expect(JSON.parse(after.stderr.trim())).toMatchObject({ status: 401 });
});
