import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as whoamiRoute } from "@/app/api/cli/whoami/route";
import { GET as skillsRoute } from "@/app/api/skills/route";
import { POST as skillRoute } from "@/app/api/skills/[name]/route";
import type { Role } from "@/lib/auth/permissions";
import type { TokenAccess } from "@/lib/schemas/tokens";
import { resetStaffTwoFactor, setStaffDisabled } from "@/server/actions/staff";
import { listAudit } from "@/server/audit/list";
import type { Staff } from "@/server/auth/guard";
import { updateStaff } from "@/server/auth/staff";
import { createAccessKey, revokeAccessKey } from "@/server/cli-auth/keys";
import { authenticateCliRequest, cliLogin } from "@/server/cli-auth/sessions";
import { BODY_LIMIT_BYTES } from "@/server/http/body";
import { createToken } from "@/server/tokens/tokens";
import { withAppDb } from "../helpers/app-db";
import { CHUNK, countedBody, streamedPost } from "../helpers/counted-body";
import { newStaff } from "../helpers/staff";
import { cliRequest } from "../helpers/cli-requests";
import { enrol } from "../helpers/two-factor";

/**
 * Command-line sessions after login: their lifetime (an injected clock), their binding to the key, their end with
 * the key's revocation or the owner's disablement; and the channels' caller (server/tools/http.ts) taking a signed
 * request with its session as channel `cli`.
 */
const session = vi.hoisted(() => ({ staff: null as null | Staff }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/server/auth/request-meta", async (original) => ({
  ...(await original<typeof import("@/server/auth/request-meta")>()),
  requestMeta: async () => ({ clientIp: null, userAgent: "vitest" }),
}));

const db = withAppDb();
const ORIGIN = "http://desk.test";
beforeEach(() => {
  session.staff = null;
});

const person = (role: Role = "operations") => newStaff(db(), role, "sessions.test");

/** A staff member logged in on the command line at `now` with a key of `access`. */
async function loggedIn(o: { role?: Role; access?: TokenAccess; now?: Date } = {}) {
  const now = o.now ?? new Date();
  const staff = await person(o.role);
  const totp = await enrol(db(), staff, now);
  const key = await createAccessKey(db(), staff, { name: "laptop", access: o.access ?? "read_write" });
  const result = await cliLogin(cliRequest({ key, url: `${ORIGIN}/api/cli/login`, body: { code: totp.code(now, 1) }, now }), {
    db: db(),
    now,
  });
  if (!result.ok) throw new Error(result.error);
  return { staff, key, session: result.answer.session, totp };
}

const whoamiAt = (key: { id: string; secret: string }, sessionSecret: string | undefined, now: Date) =>
  authenticateCliRequest(cliRequest({ key, url: `${ORIGIN}/api/cli/whoami`, session: sessionSecret, now }), { db: db(), now });

describe("a command-line session", () => {
  it("lives CLI_SESSION_HOURS (12) after the login and not a second longer", async () => {
    const t = new Date("2030-06-01T06:00:00Z");
    const { key, session: s } = await loggedIn({ now: t });
    const at = (ms: number) => new Date(t.getTime() + ms);
    expect(await whoamiAt(key, s, at(12 * 3_600_000 - 1000))).toMatchObject({ ok: true, caller: { expiresAt: at(12 * 3_600_000) } });
    expect(await whoamiAt(key, s, at(12 * 3_600_000))).toMatchObject({ ok: false, status: 401, error: "SESSION_EXPIRED" });
  });

  it("is bound to the key that logged in: another key of the same owner cannot carry it; without one: NOT_LOGGED_IN", async () => {
    const { staff, key, session: s } = await loggedIn();
    const other = await createAccessKey(db(), staff, { name: "desktop", access: "read_write" });
    expect(await whoamiAt(key, s, new Date())).toMatchObject({ ok: true });
    expect(await whoamiAt(other, s, new Date())).toMatchObject({ status: 401, error: "SESSION_EXPIRED" });
    expect(await whoamiAt(key, undefined, new Date())).toMatchObject({ status: 401, error: "NOT_LOGGED_IN" });
    expect(await whoamiAt(key, `bdcs_${"A".repeat(43)}`, new Date())).toMatchObject({ error: "SESSION_EXPIRED" });
  });

  it("ends with its key's revocation", async () => {
    const { staff, key, session: s } = await loggedIn();
    await revokeAccessKey(db(), staff, key.id);
    expect(await whoamiAt(key, s, new Date())).toMatchObject({ status: 401, error: "UNKNOWN_KEY" });
  });

  it("ends when its owner is disabled, and stays ended when they are enabled again", async () => {
    const admin = await person("admin");
    const { staff, key, session: s } = await loggedIn();
    session.staff = admin;
    expect(await setStaffDisabled({ userId: staff.id, disabled: true })).toMatchObject({ ok: true });
    expect(await whoamiAt(key, s, new Date())).toMatchObject({ status: 401, error: "UNKNOWN_KEY" });
    expect(await setStaffDisabled({ userId: staff.id, disabled: false })).toMatchObject({ ok: true });
    expect(await whoamiAt(key, s, new Date())).toMatchObject({ status: 401, error: "SESSION_EXPIRED" });
    // Disabled by other means than the page (the database's flag alone), the session is refused all the same.
    const second = await loggedIn();
    await updateStaff(db(), second.staff.id, { disabled: true });
    expect(await whoamiAt(second.key, second.session, new Date())).toMatchObject({ status: 401 });
  });

  it("ends when an administrator resets its owner's authenticator (its login asked for that authenticator's code)", async () => {
    const admin = await person("admin");
    const { staff, key, session: s } = await loggedIn();
    const other = await loggedIn();
    session.staff = admin;
    expect(await resetStaffTwoFactor({ userId: staff.id })).toMatchObject({ ok: true });
    expect(await whoamiAt(key, s, new Date())).toMatchObject({ status: 401, error: "SESSION_EXPIRED" });
    // Their desk sessions end too (a cookie issued before the reset is refused); another person's session stands.
    const [{ revoked }] = (
      await db().engine.query<{ revoked: boolean }>(
        "SELECT sessions_revoked_at IS NOT NULL AS revoked FROM brokerdesk.staff_users WHERE id = $1",
        [staff.id],
      )
    ).rows;
    expect(revoked).toBe(true);
    expect(await whoamiAt(other.key, other.session, new Date())).toMatchObject({ ok: true });
  });

  it("GET /api/cli/whoami answers who it acts for, its scopes and its end", async () => {
    const { staff, key, session: s } = await loggedIn({ role: "compliance", access: "read" });
    const res = await whoamiRoute(cliRequest({ key, url: `${ORIGIN}/api/cli/whoami`, session: s }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      email: staff.email,
      name: staff.name,
      role: "compliance",
      scopes: ["read"],
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const refused = await whoamiRoute(cliRequest({ key, url: `${ORIGIN}/api/cli/whoami` }));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "NOT_LOGGED_IN" });
  });
});

describe("the channels' caller with a command-line session", () => {
  const skill = (name: string, key: { id: string; secret: string }, s: string, body: unknown = {}) =>
    skillRoute(cliRequest({ key, url: `${ORIGIN}/api/skills/${name}`, body, session: s }), { params: Promise.resolve({ name }) });

  it("runs a skill as the key's owner, recorded with channel cli and the key's id as the token", async () => {
    const { staff, key, session: s } = await loggedIn({ role: "support", access: "read" });
    const res = await skill("find-orders", key, s, { symbol: "AAPL" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ rows: [] });
    const [entry] = (await listAudit(db().engine, { action: "tools.find_orders", actor: staff.email })).rows;
    expect(entry).toMatchObject({ outcome: "success", channel: "cli", tokenId: key.id, actorRole: "support" });
    const listing = await skillsRoute(cliRequest({ key, url: `${ORIGIN}/api/skills`, session: s }));
    expect(listing.status).toBe(200);
    expect(((await listing.json()) as { skills: { name: string }[] }).skills.map((x) => x.name)).toContain("find-orders");
  });

  it("a read key cannot write: 403 INSUFFICIENT_SCOPE, audited with the channel and key", async () => {
    const { staff, key, session: s } = await loggedIn({ role: "support", access: "read" });
    const res = await skill("cancel-order", key, s, { orderId: "1", reasonCode: "CUSTOMER_REQUEST" });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "INSUFFICIENT_SCOPE" });
    const [entry] = (await listAudit(db().engine, { actor: staff.email, outcome: "denied" })).rows;
    expect(entry).toMatchObject({ errorCode: "INSUFFICIENT_SCOPE", channel: "cli", tokenId: key.id });
  });

  it("refuses a signed request whose session or signature does not hold, with the command line's codes", async () => {
    const { key, session: s } = await loggedIn();
    expect(await (await skill("find-orders", { ...key, secret: `bdsk_${"x".repeat(43)}` }, s)).json()).toMatchObject({
      error: "BAD_SIGNATURE",
    });
    const res = await skillRoute(cliRequest({ key, url: `${ORIGIN}/api/skills/find-orders`, body: {} }), {
      params: Promise.resolve({ name: "find-orders" }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "NOT_LOGGED_IN" });
  });

  it("a request without the signing headers still presents a staff access token, as before", async () => {
    const staff = await person("support");
    const token = await createToken(db(), staff, { name: "assistant", access: "read", expiresInDays: "7" });
    const res = await skillRoute(
      new Request(`${ORIGIN}/api/skills/find-orders`, { method: "POST", headers: { authorization: `Bearer ${token.secret}` }, body: "{}" }),
      { params: Promise.resolve({ name: "find-orders" }) },
    );
    expect(res.status).toBe(200);
    const [entry] = (await listAudit(db().engine, { action: "tools.find_orders", actor: staff.email })).rows;
    expect(entry).toMatchObject({ channel: "skills", tokenId: token.id });
  });

  it("a skill's body over the cap is refused 413 REQUEST_TOO_LARGE, read no further, and the skill does not run", async () => {
    const staff = await person("support");
    const token = await createToken(db(), staff, { name: "assistant", access: "read", expiresInDays: "7" });
    // Blanks: read whole, they would be an empty body, and the skill would run.
    const { stream, seen } = countedBody({ total: 4 * BODY_LIMIT_BYTES, failPast: BODY_LIMIT_BYTES + CHUNK });
    const res = await skillRoute(streamedPost(`${ORIGIN}/api/skills/find-orders`, { authorization: `Bearer ${token.secret}` }, stream), {
      params: Promise.resolve({ name: "find-orders" }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "REQUEST_TOO_LARGE", message: `The request body is larger than ${BODY_LIMIT_BYTES} bytes.` });
    expect(seen.pulled).toBeLessThanOrEqual(BODY_LIMIT_BYTES + CHUNK);
    expect((await listAudit(db().engine, { action: "tools.find_orders", actor: staff.email })).rows).toEqual([]);
  });
});
