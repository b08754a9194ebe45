import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { storageFor } from "./helpers";

// The web server of this run built the app, so .next/static holds exactly what browsers download.
function staticFiles(dir = path.join(process.cwd(), ".next", "static")): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? staticFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test("the browser bundle carries no upstream secret, token or signing code", async ({ browser }) => {
  const files = staticFiles().filter((f) => /\.(js|css|json|txt|html)$/.test(f));
  expect(files.length).toBeGreaterThan(5);
  const forbidden = [
    "brokerdesk-demo-secret", // the sandbox app secret (a default in lib/env.ts)
    process.env.BROKER_APP_SECRET,
    "x-access-token", // only the server-side client sends the token header
    "x-signature-nonce", // only the server-side client signs
    "argon2",
  ].filter((s): s is string => !!s);

  // And the token the app holds right now: read it the way an attacker in the browser could not.
  const admin = await browser.newContext({ storageState: storageFor("admin") });
  const page = await admin.newPage();
  await page.goto("/admin/connection");
  const html = await page.content();
  await admin.close();
  expect(html).not.toContain("brokerdesk-demo-secret");

  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    for (const needle of forbidden) expect(text.includes(needle), `${path.basename(file)} contains ${needle}`).toBe(false);
  }
});
