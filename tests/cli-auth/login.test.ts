import { describe, expect, it, vi } from "vitest";
import { POST as loginRoute } from "@/app/api/cli/login/route";
import type { Role } from "@/lib/auth/permissions";
import { listAudit } from "@/server/audit/list";
import { createAccessKey } from "@/server/cli-auth/keys";
import { authenticateCliRequest, cliLogin } from "@/server/cli-auth/sessions";
import { withAppDb } from "../helpers/app-db";
import { newStaff } from "../helpers/staff";
import { cliRequest } from "../helpers/cli-requests";
import { enrol } from "../helpers/two-factor";

/** `POST /api/cli/login`: a signed request with the authenticator's code makes a session; every refusal; the audit trail. */
vi.mock("@/server/auth/request-meta", () => ({
  requestMeta: async () => ({ clientIp: "10.0.0.7", userAgent: "vitest" }),
  metaFromHeaders: () => ({ clientIp: "10.0.0.7", userAgent: "brokerdesk-cli/test" }),
}));

const db = withAppDb();
const T = new Date("2030-05-01T08:00:10Z");
const LOGIN = "http://desk.test/api/cli/login";

const person = (role: Role = "operations") => newStaff(db(), role, "login.test");

/** A staff member with an authenticator enrolled at T and a read-and-write key. */
async function enrolled(role: Role = "operations") {
  const staff = await person(role);
  const totp = await enrol(db(), staff, T);
  const key = await createAccessKey(db(), staff, { name: "laptop", access: "read_write" });
  return { staff, key, totp };
}

const login = (key: { id: string; secret: string }, body: unknown, now = T) =>
  cliLogin(cliRequest({ key, url: LOGIN, body, now }), { db: db(), now });
const loginEntries = async (actor: string) => (await listAudit(db().engine, { action: "cli.login", actor })).rows;

describe("logging in with a code", () => {
  it("the right code answers a session for the key's owner with the key's scopes, 12 hours long; audited with channel cli and the key", async () => {
    const { staff, key, totp } = await enrolled();
    const code = totp.code(T, 1); // the next step's code: the enrolment used this step's
    const result = await login(key, { code });
    expect(result).toEqual({
      ok: true,
      answer: {
        session: expect.stringMatching(/^bdcs_[A-Za-z0-9_-]{43}$/),
        expires_at: new Date(T.getTime() + 12 * 3_600_000).toISOString(),
        staff: { email: staff.email, name: staff.name, role: "operations" },
        scopes: ["read", "write"],
      },
    });
    const session = (result as { answer: { session: string } }).answer.session;
    const stored = await db().engine.query<{ token_hash: string }>("SELECT token_hash FROM brokerdesk.cli_sessions WHERE key_id = $1", [
      key.id,
    ]);
    expect(stored.rows.map((r) => r.token_hash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(JSON.stringify(stored.rows)).not.toContain(session);

    const [entry] = await loginEntries(staff.email);
    expect(entry).toMatchObject({
      outcome: "success",
      channel: "cli",
      tokenId: key.id,
      target: `staff:${staff.id}`,
      userAgent: "brokerdesk-cli/test",
    });
    expect(JSON.stringify(entry)).not.toContain(code);
    expect(JSON.stringify(entry)).not.toContain(session);
    expect(
      await authenticateCliRequest(cliRequest({ key, url: "http://desk.test/api/cli/whoami", session, now: T }), { db: db(), now: T }),
    ).toMatchObject({
      ok: true,
    });
  });

  it("a wrong code is 401 WRONG_CODE, audited as a failure; no session is made", async () => {
    const { staff, key, totp } = await enrolled();
    const right = totp.code(T, 1);
    const wrong = right === "000000" ? "111111" : "000000";
    expect(await login(key, { code: wrong })).toMatchObject({ ok: false, status: 401, error: "WRONG_CODE" });
    expect(await login(key, { code: totp.code(T, 3) })).toMatchObject({ error: "WRONG_CODE" }); // outside one step either way
    const [entry] = await loginEntries(staff.email);
    expect(entry).toMatchObject({ outcome: "failure", errorCode: "WRONG_CODE", channel: "cli", tokenId: key.id });
    expect((await db().engine.query("SELECT 1 FROM brokerdesk.cli_sessions WHERE key_id = $1", [key.id])).rows).toEqual([]);
  });

  it("a code already used in its step is refused as WRONG_CODE (the enrolment's, or a login's), even from another key", async () => {
    const { staff, key, totp } = await enrolled();
    expect(await login(key, { code: totp.code(T) })).toMatchObject({ error: "WRONG_CODE" }); // the enrolment used it
    const next = totp.code(T, 1);
    expect(await login(key, { code: next })).toMatchObject({ ok: true });
    expect(await login(key, { code: next })).toMatchObject({ ok: false, status: 401, error: "WRONG_CODE" });
    const other = await createAccessKey(db(), staff, { name: "desktop", access: "read" });
    expect(await login(other, { code: next })).toMatchObject({ error: "WRONG_CODE" });
    // The step before the last one used is refused too; a later one is not.
    expect(await login(key, { code: totp.code(T, -1) })).toMatchObject({ error: "WRONG_CODE" });
    const later = new Date(T.getTime() + 60_000);
    expect(await login(key, { code: totp.code(later) }, later)).toMatchObject({ ok: true });
  });

  it("without a confirmed authenticator: 401 NOT_ENROLLED (a pending enrolment is not one)", async () => {
    const staff = await person("support");
    const key = await createAccessKey(db(), staff, { name: "laptop", access: "read" });
    expect(await login(key, { code: "123456" })).toMatchObject({ ok: false, status: 401, error: "NOT_ENROLLED" });
    const { startEnrolment } = await import("@/server/two-factor/two-factor");
    await startEnrolment(db(), staff, T);
    expect(await login(key, { code: "123456" })).toMatchObject({ error: "NOT_ENROLLED" });
    expect((await loginEntries(staff.email))[0]).toMatchObject({ outcome: "failure", errorCode: "NOT_ENROLLED" });
  });

  it("after 5 wrong codes in 15 minutes: 429 RATE_LIMITED, even for the right code, until the first of them is 15 minutes old", async () => {
    const { key, totp } = await enrolled();
    for (let i = 0; i < 5; i++) {
      const at = new Date(T.getTime() + i * 1000);
      expect(await login(key, { code: "99999" + i }, at)).toMatchObject({ error: "WRONG_CODE" });
    }
    const soon = new Date(T.getTime() + 60_000);
    const limited = await login(key, { code: totp.code(soon) }, soon);
    expect(limited).toMatchObject({ ok: false, status: 429, error: "RATE_LIMITED", retryAfterSeconds: 14 * 60 });
    const after = new Date(T.getTime() + 15 * 60_000 + 1000);
    expect(await login(key, { code: totp.code(after) }, after)).toMatchObject({ ok: true });
  });

  it("a body that is not { code } is 400 BAD_REQUEST; a request that is not signed right is refused and audited", async () => {
    const { staff, key, totp } = await enrolled();
    expect(await login(key, ["not", "an", "object"])).toMatchObject({ status: 400, error: "BAD_REQUEST" });
    const badlySigned = cliRequest({ key, url: LOGIN, body: { code: totp.code(T, 1) }, now: T, signSecret: "bdsk_wrong" });
    expect(await cliLogin(badlySigned, { db: db(), now: T })).toMatchObject({ status: 401, error: "BAD_SIGNATURE" });
    expect((await loginEntries(staff.email))[0]).toMatchObject({ outcome: "failure", errorCode: "BAD_SIGNATURE", tokenId: key.id });
    const unknown = { id: "bdak_ZZZZZZZZZZZZZZZZZZZZ", secret: key.secret };
    expect(await login(unknown, { code: "123456" })).toMatchObject({ error: "UNKNOWN_KEY" });
    const [entry] = (await listAudit(db().engine, { action: "cli.login", outcome: "failure" })).rows;
    expect(entry).toMatchObject({ actorEmail: null, errorCode: "UNKNOWN_KEY", tokenId: unknown.id, channel: "cli" });
  });

  it("the route answers the contract's JSON: 200 with the session, a refusal as { error, message } with its status", async () => {
    const now = new Date();
    const staff = await person();
    const totp = await enrol(db(), staff, now);
    const key = await createAccessKey(db(), staff, { name: "laptop", access: "read" });
    const ok = await loginRoute(cliRequest({ key, url: LOGIN, body: { code: totp.code(now, 1) } }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(await ok.json()).toMatchObject({ session: expect.stringMatching(/^bdcs_/), scopes: ["read"], staff: { email: staff.email } });
    const refused = await loginRoute(cliRequest({ key, url: LOGIN, body: { code: totp.code(now, 1) } }));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "WRONG_CODE", message: expect.any(String) });
  });
});
