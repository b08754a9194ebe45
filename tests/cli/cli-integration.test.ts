import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Skill } from "@/cli/src/skills/listing";
import { exampleLine, planToolCommands } from "@/cli/src/skills/plan";
import { skillListing } from "@/server/tools/skills";
import { deskHandlers, NEW_SKILL } from "./helpers/desk-fixture";
import { type FakeDesk, type FakeKey, newKey, startFakeDesk, totp } from "./helpers/fake-desk";
import { newConfigDir, runCli } from "./helpers/run-cli";
import { parseCsv } from "../helpers/csv";

/**
 * The `brokerdesk` bin as a subprocess against small desks that implement the CLI contract and verify every
 * signature with cli/src/signing.ts. Desk A serves the real registry's listing; desk B the same plus a skill the
 * CLI has never seen.
 */
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));

const ADMIN = { email: "ada@desk.test", name: "Ada", role: "admin" };
let admin: FakeKey;
let reader: FakeKey;
let unenrolled: FakeKey;
let other: FakeKey;
let deskA: FakeDesk;
let deskB: FakeDesk;

beforeAll(async () => {
  const listing = skillListing() as unknown as Skill[];
  admin = newKey(ADMIN);
  reader = newKey({ email: "rita@desk.test", name: "Rita", role: "support" }, ["read"]);
  unenrolled = newKey({ email: "uma@desk.test", name: "Uma", role: "operations" }, ["read", "write"], false);
  other = newKey({ email: "bob@other.test", name: "Bob", role: "operations" });
  deskA = await startFakeDesk([admin, reader, unenrolled], listing, deskHandlers());
  deskB = await startFakeDesk([other], [...listing, NEW_SKILL], {
    ...deskHandlers(),
    "get-movement": (input) => ({ status: 200, body: { id: input.movement_id, kind: "CASH_JOURNAL" } }),
  });
});

afterAll(async () => {
  await deskA?.close();
  await deskB?.close();
});

/**
 * A config directory with `profile` logged in to `desk` through the CLI's own login, with a new key of the staff
 * member `like` (a code works once, so each login has its own authenticator).
 */
async function loggedIn(like: FakeKey, desk: FakeDesk, dir = newConfigDir(), profile = "default") {
  const key = newKey(like.staff, like.scopes);
  desk.keys.push(key);
  const r = await runCli(["login", "--profile", profile, "--desk", desk.url, "--access-key", key.id, "--code", totp(key.totp!)], {
    configDir: dir,
    env: { BROKERDESK_SECRET_KEY: key.secret },
  });
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

const skillCalls = (desk: FakeDesk, skill: string) => desk.calls.filter((c) => c.skill === skill);

describe("login", () => {
  it("asks for the key pair and the code, stores the session in a 0600 file in a 0700 directory", async () => {
    const dir = newConfigDir();
    const code = totp(admin.totp!);
    const r = await runCli(["login", "--desk", deskA.url], { configDir: dir, stdin: `${admin.id}\n${admin.secret}\n${code}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Access key id:");
    expect(r.stderr).toContain("Secret key:");
    expect(r.stderr).not.toContain(admin.secret);
    expect(r.json()).toMatchObject({ profile: "default", email: ADMIN.email, role: "admin", scopes: ["read", "write"] });

    const login = deskA.requests.filter((q) => q.path === "/api/cli/login").at(-1)!;
    expect(JSON.parse(login.body)).toEqual({ code });
    expect(login.headers["x-brokerdesk-key"]).toBe(admin.id);

    const file = path.join(dir, "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored.current).toBe("default");
    expect(stored.profiles.default).toMatchObject({ desk: deskA.url, access_key_id: admin.id, secret_key: admin.secret });
    expect(stored.profiles.default.session).toMatch(/^bdcs_/);

    // The session works: whoami is signed and carries it.
    const who = await runCli(["whoami"], { configDir: dir });
    expect(who.code, who.stderr).toBe(0);
    expect(who.json()).toMatchObject({ email: ADMIN.email, scopes: ["read", "write"] });
  });

  it("exits 3 on a wrong code, and keeps nothing", async () => {
    const dir = newConfigDir();
    const good = totp(admin.totp!);
    const wrong = good === "000000" ? "111111" : "000000";
    const r = await runCli(["login", "--desk", deskA.url, "--access-key", admin.id, "--code", wrong], {
      configDir: dir,
      env: { BROKERDESK_SECRET_KEY: admin.secret },
    });
    expect(r.code).toBe(3);
    expect(r.error()).toMatchObject({ error: "WRONG_CODE", status: 401 });
    expect(r.stdout).toBe("");
    expect(() => readFileSync(path.join(dir, "config.json"))).toThrow();
  });

  it("exits 3 for a key without an authenticator, and 3 for a wrong secret (bad signature)", async () => {
    const dir = newConfigDir();
    const r = await runCli(["login", "--desk", deskA.url, "--access-key", unenrolled.id, "--code", "123456"], {
      configDir: dir,
      env: { BROKERDESK_SECRET_KEY: unenrolled.secret },
    });
    expect(r.code).toBe(3);
    expect(r.error()).toMatchObject({ error: "NOT_ENROLLED" });
    expect(String(r.error().hint)).toContain("/settings/security");

    const bad = await runCli(["login", "--desk", deskA.url, "--access-key", admin.id, "--code", "123456"], {
      configDir: dir,
      env: { BROKERDESK_SECRET_KEY: `${admin.secret}x` },
    });
    expect(bad.code).toBe(3);
    expect(bad.error()).toMatchObject({ error: "BAD_SIGNATURE" });
  });

  it("exits 3 without a session, before sending anything", async () => {
    const dir = newConfigDir();
    const before = deskA.requests.length;
    const r = await runCli(["orders", "list"], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.error()).toMatchObject({ error: "NOT_LOGGED_IN" });
    expect(deskA.requests.length).toBe(before);
  });
});

describe("the desk's tools as commands", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await loggedIn(admin, deskA);
  });

  it("lists every command with an example once logged in", async () => {
    const r = await runCli(["--help"], { configDir: dir });
    expect(r.code).toBe(0);
    for (const line of [
      "orders cancel",
      "movements cash-journal",
      "approvals approve",
      "activities export",
      "watchlist instruments-add",
      "stream health",
    ])
      expect(r.stdout).toContain(`  ${line}`);
    expect(r.stdout).toContain("$ brokerdesk orders cancel <orderId> --reason-code CUSTOMER_REQUEST");
    expect(r.stdout).toContain("$ brokerdesk stock noii-bars --symbol AAPL");
    // Every skill of the desk's listing is a command there, each with its example.
    const plans = planToolCommands(skillListing() as unknown as Skill[], new Set());
    expect(plans.length).toBeGreaterThanOrEqual(32);
    for (const plan of plans) {
      expect(r.stdout).toContain(`  ${plan.path.join(" ")} `);
      expect(r.stdout).toContain(`$ ${exampleLine(plan)}`);
    }
  });

  it("reads a listing as JSON off a terminal, and as CSV the way the desk's exports write it", async () => {
    const r = await runCli(["orders", "list", "--side", "BUY"], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ rows: [{ id: "101" }, { id: "102" }], next_cursor: "2" });
    expect(skillCalls(deskA, "find-orders").at(-1)!.input).toEqual({ side: "BUY" });

    const csv = await runCli(["orders", "list", "--output", "csv"], { configDir: dir });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.startsWith("\uFEFF")).toBe(true);
    expect(csv.stdout.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(csv.stdout.slice(1));
    expect(rows[0]).toEqual(["id", "symbol", "side", "quantity", "limit_price", "account.id", "account.number", "note"]);
    expect(rows[1]).toEqual(["101", "AAPL", "BUY", "10", "187.50", "acc1", "VBD1000001", "'=1+1"]);
    expect(rows[2]).toEqual(["102", "MSFT", "SELL", "5", "", "acc2", "VBD1000002", 'say "hi", then\nleave']);
  });

  it("takes the record's id as an argument", async () => {
    const r = await runCli(["orders", "get", "103"], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(skillCalls(deskA, "get-order").at(-1)!.input).toEqual({ order_id: "103" });
    expect(r.json()).toMatchObject({ id: "103", symbol: "TSLA" });
  });

  it("sends the schema's JSON types: integers for market data, an array of objects for a watchlist", async () => {
    const movers = await runCli(["stock", "gainers-losers", "--page-size", "5", "--direction", "ASC"], { configDir: dir });
    expect(movers.code, movers.stderr).toBe(0);
    expect(skillCalls(deskA, "stock-gainers-losers").at(-1)!.input).toEqual({ page_size: 5, direction: "ASC" });

    const add = await runCli(
      [
        "watchlist",
        "instruments-add",
        "w1",
        "--instruments",
        '{"symbol":"AAPL","category":"US_STOCK"}',
        "--instruments",
        '[{"symbol":"00700","category":"HK_STOCK"}]',
      ],
      { configDir: dir },
    );
    expect(add.code, add.stderr).toBe(0);
    expect(skillCalls(deskA, "watchlist-instruments-add").at(-1)!.input).toEqual({
      watchlist_id: "w1",
      instruments: [
        { symbol: "AAPL", category: "US_STOCK" },
        { symbol: "00700", category: "HK_STOCK" },
      ],
    });
  });

  it("refuses bad arguments with exit 2 and sends nothing", async () => {
    const before = deskA.calls.length;
    for (const args of [
      ["orders", "list", "--side", "BUY2"],
      ["accounts", "list", "--size", "11"],
      ["orders", "cancel", "101", "--yes"],
      ["orders", "get", "not-a-number"],
      ["orders", "list", "--no-such-option"],
    ]) {
      const r = await runCli(args, { configDir: dir });
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.error().error).toBe("USAGE");
    }
    expect(deskA.calls.length).toBe(before);
  });

  it("asks before a destructive tool: off a terminal it needs --yes; --dry-run prints the signed request only", async () => {
    const before = skillCalls(deskA, "cancel-order").length;
    const refused = await runCli(["orders", "cancel", "101", "--reason-code", "DUPLICATE"], { configDir: dir });
    expect(refused.code).toBe(2);
    expect(String(refused.error().message)).toContain("--yes");

    const dry = await runCli(["orders", "cancel", "101", "--reason-code", "DUPLICATE", "--dry-run"], { configDir: dir });
    expect(dry.code, dry.stderr).toBe(0);
    const printed = dry.json() as { url: string; headers: Record<string, string>; body: unknown };
    expect(printed.url).toBe(`${deskA.url}/api/skills/cancel-order`);
    expect(printed.body).toEqual({ orderId: "101", reasonCode: "DUPLICATE" });
    expect(printed.headers["x-brokerdesk-signature"]).toBe("<redacted>");
    expect(skillCalls(deskA, "cancel-order").length).toBe(before);

    const sent = await runCli(["orders", "cancel", "101", "--reason-code", "DUPLICATE", "--yes"], { configDir: dir });
    expect(sent.code, sent.stderr).toBe(0);
    expect(skillCalls(deskA, "cancel-order").length).toBe(before + 1);
  });

  it("exits 5 when an approval rule holds the journal, with the approval's id on stdout", async () => {
    const r = await runCli(
      ["movements", "cash-journal", "--from-account", "acc1", "--to-account", "acc2", "--currency", "USD", "--amount", "5000"],
      { configDir: dir },
    );
    expect(r.code, r.stderr).toBe(5);
    expect(r.json()).toMatchObject({ status: "held", approvalId: "5f0c6b1e-0000-4000-8000-000000000001" });
    const input = skillCalls(deskA, "request-cash-journal").at(-1)!.input;
    expect(input.client_request_id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(r.stderr).toContain(String(input.client_request_id));
  });

  it("retries a journal whose answer was lost with the same client_request_id: one journal", async () => {
    deskA.dropAfter("request-cash-journal", 1);
    const before = skillCalls(deskA, "request-cash-journal").length;
    const r = await runCli(
      ["movements", "cash-journal", "--from-account", "acc1", "--to-account", "acc2", "--currency", "USD", "--amount", "10"],
      { configDir: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    const calls = skillCalls(deskA, "request-cash-journal").slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[1].input.client_request_id).toBe(calls[0].input.client_request_id);
    expect(r.json()).toEqual({ status: "sent", movement_id: expect.any(String) });
  });

  it("does not retry a write without a client_request_id: exit 1 and the id-less write acted once", async () => {
    deskA.dropAfter("approve-request", 1);
    const before = skillCalls(deskA, "approve-request").length;
    const r = await runCli(["approvals", "approve", "5f0c6b1e-0000-4000-8000-000000000001"], { configDir: dir });
    expect(r.code).toBe(1);
    expect(r.error()).toMatchObject({ error: "NETWORK" });
    expect(skillCalls(deskA, "approve-request").length).toBe(before + 1);
  });

  it("exports every page of activities as one CSV, without a progress bar off a terminal", async () => {
    const r = await runCli(["activities", "export", "--account", "VBD1000001"], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const rows = parseCsv(r.stdout.slice(1));
    expect(rows.map((row) => row[0])).toEqual(["id", "act1", "act2", "act3", "act4", "act5"]);
    const cursors = skillCalls(deskA, "list-account-activities")
      .slice(-3)
      .map((c) => c.input.cursor);
    expect(cursors).toEqual([undefined, "2", "4"]);
  });

  it("reads the listing once an hour: the next command uses the copy, --refresh-skills reads it again", async () => {
    const listings = () => deskA.requests.filter((q) => q.path === "/api/skills").length;
    const before = listings();
    expect((await runCli(["accounts", "list"], { configDir: dir })).code).toBe(0);
    expect(listings()).toBe(before);
    expect((await runCli(["accounts", "list", "--refresh-skills"], { configDir: dir })).code).toBe(0);
    expect(listings()).toBe(before + 1);
  });

  it("reports the desk's health, the session and the stream", async () => {
    const r = await runCli(["status"], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ health: "ok", session: "valid", stream: { state: "connected" } });
  });

  it("exits 3 once the session has expired, without calling the desk", async () => {
    const expired = await loggedIn(admin, deskA);
    const file = path.join(expired, "config.json");
    const config = JSON.parse(readFileSync(file, "utf8"));
    config.profiles.default.session_expires_at = new Date(Date.now() - 1000).toISOString();
    writeFileSync(file, JSON.stringify(config));
    const before = deskA.calls.length;
    const r = await runCli(["orders", "list"], { configDir: expired });
    expect(r.code).toBe(3);
    expect(r.error()).toMatchObject({ error: "SESSION_EXPIRED" });
    expect(deskA.calls.length).toBe(before);
  });
});

it("exits 3 when the desk has ended the session, and the profile forgets it", async () => {
  const dir = await loggedIn(other, deskB);
  deskB.endSessions();
  const r = await runCli(["whoami"], { configDir: dir });
  expect(r.code).toBe(3);
  expect(r.error()).toMatchObject({ error: "SESSION_EXPIRED", status: 401 });
  const list = await runCli(["profile", "list"], { configDir: dir });
  expect(list.json()).toMatchObject({ rows: [{ name: "default", session: "none" }] });
});

it("exits 4 when the key's scope refuses a write", async () => {
  const dir = await loggedIn(reader, deskA);
  const r = await runCli(["approvals", "approve", "5f0c6b1e-0000-4000-8000-000000000001"], { configDir: dir });
  expect(r.code, r.stderr).toBe(4);
  expect(r.error()).toMatchObject({ error: "INSUFFICIENT_SCOPE", status: 403 });
});

it("keeps two profiles against two desks apart", async () => {
  const dir = await loggedIn(admin, deskA, newConfigDir(), "alpha");
  await loggedIn(other, deskB, dir, "beta");

  const list = await runCli(["profile", "list"], { configDir: dir });
  expect(list.json()).toMatchObject({
    rows: [
      { name: "alpha", current: true, desk: deskA.url, session: "valid" },
      { name: "beta", current: false, desk: deskB.url, session: "valid" },
    ],
  });
  expect(list.stdout).not.toContain(admin.secret);

  const a = await runCli(["whoami"], { configDir: dir });
  const b = await runCli(["whoami", "--profile", "beta"], { configDir: dir });
  const bEnv = await runCli(["whoami"], { configDir: dir, env: { BROKERDESK_PROFILE: "beta" } });
  expect(a.json()).toMatchObject({ profile: "alpha", email: ADMIN.email });
  expect(b.json()).toMatchObject({ profile: "beta", email: "bob@other.test" });
  expect(bEnv.json()).toMatchObject({ profile: "beta", email: "bob@other.test" });

  // Desk B's new skill is a command on B's profile only, with no change to the CLI.
  const movement = await runCli(["movements", "get", "mv9", "--profile", "beta"], { configDir: dir });
  expect(movement.code, movement.stderr).toBe(0);
  expect(movement.json()).toEqual({ id: "mv9", kind: "CASH_JOURNAL" });
  expect((await runCli(["movements", "get", "mv9"], { configDir: dir })).code).toBe(2);

  expect((await runCli(["profile", "use", "beta"], { configDir: dir })).code).toBe(0);
  expect((await runCli(["whoami"], { configDir: dir })).json()).toMatchObject({ profile: "beta" });
});
