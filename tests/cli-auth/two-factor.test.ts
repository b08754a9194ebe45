import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as liveRoute } from "@/app/api/live/route";
import type { Role } from "@/lib/auth/permissions";
import { confirmTwoFactor, setTwoFactorRoles, startTwoFactor, turnOffTwoFactor } from "@/server/actions/two-factor";
import { resetStaffTwoFactor } from "@/server/actions/staff";
import { createAccessToken } from "@/server/actions/tokens";
import { listAudit } from "@/server/audit/list";
import type { Staff } from "@/server/auth/guard";
import { issueChallenge } from "@/server/auth/sign-in-challenge";
import { authenticateStaff, completeSignInWithCode, MAX_FAILED_ATTEMPTS } from "@/server/auth/staff";
import { codeAt, stepAt } from "@/server/two-factor/totp";
import { enrolmentOf, mustEnrol } from "@/server/two-factor/two-factor";
import { withAppDb } from "../helpers/app-db";
import { newStaff, STAFF_PASSWORD as PASSWORD } from "../helpers/staff";
import { enrol } from "../helpers/two-factor";

/** Enrolment on Settings → Security (actions), the desk's sign-in with a code, and the roles that require one. */
const session = vi.hoisted(() => ({ staff: null as null | Staff }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("@/server/auth/request-meta", () => ({
  requestMeta: async () => ({ clientIp: null, userAgent: "vitest" }),
  metaFromHeaders: () => ({ clientIp: null, userAgent: "vitest" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const db = withAppDb();
beforeEach(() => {
  session.staff = null;
});

const person = (role: Role = "operations") => newStaff(db(), role, "2fa.test");
const entries = async (action: string, actor: string) => (await listAudit(db().engine, { action, actor })).rows;
const otherThan = (code: string) => (code === "000000" ? "111111" : "000000");

describe("enrolling an authenticator (actions)", () => {
  it("start shows a pending secret (otpauth URI); a wrong code does not confirm it, the app's code does; audited without the code", async () => {
    const me = await person();
    session.staff = me;
    expect(await startTwoFactor({})).toMatchObject({ ok: true });
    const pending = await enrolmentOf(db(), me);
    expect(pending).toMatchObject({ status: "pending", uri: expect.stringMatching(/^otpauth:\/\/totp\/Brokerdesk:/) });
    const { secret, uri } = pending as { secret: string; uri: string };
    expect(new URL(uri).searchParams.get("secret")).toBe(secret);
    expect(Object.fromEntries(new URL(uri).searchParams)).toMatchObject({
      issuer: "Brokerdesk",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
    // The secret is stored sealed, never as it is.
    const stored = await db().engine.query<{ secret_sealed: string }>(
      "SELECT secret_sealed FROM brokerdesk.staff_totp WHERE staff_id = $1",
      [me.id],
    );
    expect(stored.rows[0].secret_sealed).toMatch(/^v1\./);
    expect(stored.rows[0].secret_sealed).not.toContain(secret);

    const code = codeAt(secret, stepAt(new Date()));
    expect(await confirmTwoFactor({ otp: otherThan(code) })).toMatchObject({
      ok: false,
      code: "WRONG_CODE",
      fieldErrors: { otp: expect.any(String) },
    });
    expect(await confirmTwoFactor({ otp: "12" })).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await confirmTwoFactor({ otp: code })).toMatchObject({ ok: true });
    expect(await enrolmentOf(db(), me)).toMatchObject({ status: "on" });
    const [entry] = await entries("two_factor.confirm", me.email);
    expect(entry).toMatchObject({ outcome: "success", target: `staff:${me.id}`, input: { otp: "[redacted]" } });
    expect(JSON.stringify(await listAudit(db().engine, { actor: me.email }))).not.toContain(secret);
    // While on, it cannot be started again (turn it off first).
    expect(await startTwoFactor({})).toMatchObject({ ok: false, code: "ALREADY_ENROLLED" });
  });

  it("turning it off takes a current code; a role that requires it refuses", async () => {
    const me = await person("support");
    const totp = await enrol(db(), me);
    session.staff = me;
    expect(await turnOffTwoFactor({ otp: otherThan(totp.code(new Date(), 1)) })).toMatchObject({ ok: false, code: "WRONG_CODE" });
    session.staff = await person("admin");
    expect(await setTwoFactorRoles({ roles: ["support"] })).toMatchObject({ ok: true, data: { roles: ["support"] } });
    session.staff = me;
    expect(await turnOffTwoFactor({ otp: totp.code(new Date(), 1) })).toMatchObject({ ok: false, code: "REQUIRED_BY_ROLE" });
    session.staff = await person("admin");
    await setTwoFactorRoles({ roles: [] });
    session.staff = me;
    expect(await turnOffTwoFactor({ otp: totp.code(new Date(), 1) })).toMatchObject({ ok: true });
    expect(await enrolmentOf(db(), me)).toEqual({ status: "off" });
  });

  it("only an administrator sets the roles that require it; a member of such a role without one must enrol", async () => {
    const ops = await person("operations");
    session.staff = ops;
    expect(await setTwoFactorRoles({ roles: ["operations"] })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await mustEnrol(db(), ops)).toBe(false);
    const admin = await person("admin");
    session.staff = admin;
    expect(await setTwoFactorRoles({ roles: ["operations", "compliance"] })).toMatchObject({ ok: true });
    expect(await mustEnrol(db(), ops)).toBe(true);
    await enrol(db(), ops);
    expect(await mustEnrol(db(), ops)).toBe(false);
    expect((await entries("two_factor.require_roles", admin.email))[0]).toMatchObject({
      outcome: "success",
      input: { roles: ["operations", "compliance"] },
    });
    await setTwoFactorRoles({ roles: [] });
  });

  it("a member who must enrol can take no action but the enrolment's own (ENROL_FIRST, audited as denied); enrolled, they can", async () => {
    const ops = await person("operations");
    session.staff = await person("admin");
    expect(await setTwoFactorRoles({ roles: ["operations"] })).toMatchObject({ ok: true });
    try {
      session.staff = ops;
      const token = { name: "before enrolling", access: "read_write", expiresInDays: "365" } as const;
      expect(await createAccessToken(token)).toEqual({
        ok: false,
        code: "ENROL_FIRST",
        serverError: expect.stringContaining("Settings → Security"),
      });
      // The refusal comes before the permission and the input: nothing about the action is checked or done.
      expect(await setTwoFactorRoles({ roles: [] })).toMatchObject({ ok: false, code: "ENROL_FIRST" });
      const [denied] = await entries("tokens.create", ops.email);
      expect(denied).toMatchObject({ outcome: "denied", errorCode: "ENROL_FIRST" });
      const created = await db().engine.query("SELECT 1 FROM brokerdesk.staff_tokens WHERE staff_id = $1", [ops.id]);
      expect(created.rows).toEqual([]);
      // Nor does the live channel open for them.
      const live = await liveRoute(new Request("http://desk.test/api/live"));
      expect([live.status, (await live.json()).error]).toEqual([403, "ENROL_FIRST"]);

      // The enrolment itself (Settings → Security): start, a wrong code, the app's code.
      expect(await startTwoFactor({})).toMatchObject({ ok: true });
      const { secret } = (await enrolmentOf(db(), ops)) as { secret: string };
      const code = codeAt(secret, stepAt(new Date()));
      expect(await confirmTwoFactor({ otp: otherThan(code) })).toMatchObject({ ok: false, code: "WRONG_CODE" });
      expect(await confirmTwoFactor({ otp: code })).toMatchObject({ ok: true });
      expect(await mustEnrol(db(), ops)).toBe(false);
      expect(await createAccessToken(token)).toMatchObject({ ok: true });
    } finally {
      session.staff = await person("admin");
      await setTwoFactorRoles({ roles: [] });
    }
  });
});

describe("an administrator's reset of someone's authenticator (a lost phone)", () => {
  it("removes it: they sign in with the password alone again; not one's own, not by another role; audited", async () => {
    const me = await person("support");
    await enrol(db(), me);
    const admin = await person("admin");
    session.staff = await person("operations");
    expect(await resetStaffTwoFactor({ userId: me.id })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    session.staff = admin;
    expect(await resetStaffTwoFactor({ userId: admin.id })).toMatchObject({ ok: false, code: "SELF_CHANGE" });
    expect(await resetStaffTwoFactor({ userId: me.id })).toMatchObject({ ok: true });
    expect(await enrolmentOf(db(), me)).toEqual({ status: "off" });
    expect(await authenticateStaff(db(), me.email, PASSWORD)).toMatchObject({ ok: true });
    expect(await resetStaffTwoFactor({ userId: me.id })).toMatchObject({ ok: false, code: "NOT_ENROLLED" });
    expect((await entries("staff.reset_two_factor", admin.email)).map((e) => e.outcome)).toEqual(["failure", "success", "failure"]);
  });
});

describe("signing in to the desk with a code", () => {
  it("a right password asks for the code (no session yet); the right code signs in; audited", async () => {
    const me = await person();
    const totp = await enrol(db(), me);
    const first = await authenticateStaff(db(), me.email, PASSWORD);
    expect(first).toMatchObject({ ok: false, reason: "code_required", challenge: expect.any(String) });
    const { challenge } = first as { challenge: string };
    expect(await completeSignInWithCode(db(), challenge, totp.code(new Date(), 1))).toMatchObject({ ok: true, user: { email: me.email } });
    expect((await entries("auth.code_requested", me.email))[0]).toMatchObject({ outcome: "success" });
    expect((await entries("auth.sign_in", me.email))[0]).toMatchObject({ outcome: "success" });
  });

  it("a wrong or reused code is refused and counts towards the lockout; an expired or forged challenge goes back to the password", async () => {
    const me = await person();
    const totp = await enrol(db(), me);
    const { challenge } = (await authenticateStaff(db(), me.email, PASSWORD)) as { challenge: string };
    const used = totp.code(new Date()); // the enrolment's step
    expect(await completeSignInWithCode(db(), challenge, used)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await completeSignInWithCode(db(), challenge, otherThan(totp.code(new Date(), 1)))).toMatchObject({
      ok: false,
      reason: "invalid",
    });
    expect((await entries("auth.sign_in", me.email)).map((e) => e.errorCode)).toEqual(["WRONG_CODE", "WRONG_CODE"]);
    const failed = await db().engine.query<{ failed_attempts: number }>(
      "SELECT failed_attempts FROM brokerdesk.staff_users WHERE id = $1",
      [me.id],
    );
    expect(failed.rows[0].failed_attempts).toBe(2);

    const old = issueChallenge(me.id, new Date(Date.now() - 6 * 60_000));
    expect(await completeSignInWithCode(db(), old, totp.code(new Date(), 1))).toEqual({ ok: false, reason: "challenge_expired" });
    const forged = `${challenge.slice(0, -2)}${challenge.endsWith("AA") ? "BB" : "AA"}`;
    expect(await completeSignInWithCode(db(), forged, totp.code(new Date(), 1))).toEqual({ ok: false, reason: "challenge_expired" });
  });

  it("wrong codes lock the account like wrong passwords (MAX_FAILED_ATTEMPTS), whatever the next code", async () => {
    const me = await person();
    const totp = await enrol(db(), me);
    const { challenge } = (await authenticateStaff(db(), me.email, PASSWORD)) as { challenge: string };
    const wrong = otherThan(totp.code(new Date(), 1));
    for (let i = 1; i < MAX_FAILED_ATTEMPTS; i++)
      expect(await completeSignInWithCode(db(), challenge, wrong)).toMatchObject({ reason: "invalid" });
    expect(await completeSignInWithCode(db(), challenge, wrong)).toMatchObject({ reason: "locked" });
    expect(await completeSignInWithCode(db(), challenge, totp.code(new Date(), 1))).toMatchObject({ ok: false, reason: "locked" });
  });

  it("a staff member who has not enrolled signs in with the password alone, as before", async () => {
    const me = await person("compliance");
    expect(await authenticateStaff(db(), me.email, PASSWORD)).toMatchObject({ ok: true });
  });
});
