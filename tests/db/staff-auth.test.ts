import { encode } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import { SESSION_COOKIE } from "@/auth.config";
import { prepareAppDb, type AppDb } from "@/server/db";
import { listAudit } from "@/server/audit/list";
import { currentStaff } from "@/server/auth/guard";
import { authenticateStaff, createStaff, MAX_FAILED_ATTEMPTS, updateStaff } from "@/server/auth/staff";
import { disableDemoUsers, seedDemoUsers, DEMO_PASSWORD, DEMO_USERS } from "@/server/auth/demo-users";
import { testEngines, withEngineDb, withProcessDb } from "../helpers/engines";

/** The request's cookie header, as the real guard (server/auth/guard.ts) reads it through next/headers. */
const request = vi.hoisted(() => ({ cookie: "" }));
vi.mock("next/headers", async () => {
  const { RequestCookies } = await import("next/dist/compiled/@edge-runtime/cookies");
  return { cookies: async () => new RequestCookies(new Headers({ cookie: request.cookie })) };
});

/** A desk session cookie as Auth.js issues it at sign-in (auth.config.ts's `jwt` callback: `sub`, `signedInAt`). */
async function sessionCookie(staffId: string, signedInAt: number): Promise<string> {
  const jwt = await encode({ token: { sub: staffId, signedInAt }, secret: process.env.AUTH_SECRET!, salt: SESSION_COOKIE });
  return `${SESSION_COOKIE}=${jwt}`;
}

for (const engine of testEngines()) {
  describe(`staff sign-in on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, async (fresh) => {
      db = fresh;
    });

    it("migrations are idempotent and demo users are seeded once", async () => {
      await prepareAppDb(db.engine);
      await seedDemoUsers(db);
      await seedDemoUsers(db);
      const { rows } = await db.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM brokerdesk.staff_users");
      expect(rows[0].n).toBe(DEMO_USERS.length);
    });

    it("outside demo mode the demo staff are disabled and cannot sign in with the published password", async () => {
      await seedDemoUsers(db);
      expect(await authenticateStaff(db, DEMO_USERS[0].email, DEMO_PASSWORD)).toMatchObject({ ok: true });
      expect((await disableDemoUsers(db)).sort()).toEqual(DEMO_USERS.map((u) => u.email).sort());
      expect(await disableDemoUsers(db)).toEqual([]);
      for (const u of DEMO_USERS) expect(await authenticateStaff(db, u.email, DEMO_PASSWORD)).toMatchObject({ ok: false });
      // Other staff are untouched.
      await createStaff(db, { email: "real@example.test", name: "R", role: "admin", password: "a real long password" });
      await disableDemoUsers(db);
      expect(await authenticateStaff(db, "real@example.test", "a real long password")).toMatchObject({ ok: true });
    });

    it("stores an argon2id hash, never the password", async () => {
      await createStaff(db, { email: "Hash@Example.test", name: "H", role: "support", password: "correct horse battery" });
      const { rows } = await db.engine.query<{ email: string; password_hash: string }>(
        "SELECT email, password_hash FROM brokerdesk.staff_users WHERE email = 'hash@example.test'",
      );
      expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
      expect(rows[0].password_hash).not.toContain("correct horse");
      expect(await authenticateStaff(db, "HASH@example.test", "correct horse battery")).toMatchObject({ ok: true });
    });

    it(`locks the account after ${MAX_FAILED_ATTEMPTS} wrong passwords, even against the right one`, async () => {
      await createStaff(db, { email: "lock@example.test", name: "L", role: "support", password: "the right password" });
      for (let i = 1; i < MAX_FAILED_ATTEMPTS; i++) {
        expect(await authenticateStaff(db, "lock@example.test", `wrong ${i}`)).toEqual({ ok: false, reason: "invalid" });
      }
      const fifth = await authenticateStaff(db, "lock@example.test", "wrong 5", { clientIp: "10.1.1.1", userAgent: "t" });
      expect(fifth).toMatchObject({ ok: false, reason: "locked" });
      const lockedUntil = (fifth as { lockedUntil: Date }).lockedUntil.getTime();
      expect(lockedUntil - Date.now()).toBeGreaterThan(14 * 60_000);
      expect(await authenticateStaff(db, "lock@example.test", "the right password")).toMatchObject({ ok: false, reason: "locked" });

      const { rows } = await listAudit(db.engine, { actor: "lock@example.test" });
      expect(rows.map((r) => `${r.action}:${r.errorCode ?? r.outcome}`)).toEqual([
        "auth.sign_in:ACCOUNT_LOCKED",
        "auth.lockout:success",
        ...Array(MAX_FAILED_ATTEMPTS).fill("auth.sign_in:INVALID_CREDENTIALS"),
      ]);
      expect(rows[1].clientIp).toBe("10.1.1.1");
    });

    it("an unlocked account signs in again; a disabled one does not", async () => {
      const { rows } = await db.engine.query<{ id: string }>("SELECT id FROM brokerdesk.staff_users WHERE email = 'lock@example.test'");
      await updateStaff(db, rows[0].id, { unlock: true });
      expect(await authenticateStaff(db, "lock@example.test", "the right password")).toMatchObject({ ok: true });
      await updateStaff(db, rows[0].id, { disabled: true });
      expect(await authenticateStaff(db, "lock@example.test", "the right password")).toEqual({ ok: false, reason: "disabled" });
    });

    it("an unknown email fails like a wrong password and is audited", async () => {
      expect(await authenticateStaff(db, "nobody@example.test", "x")).toEqual({ ok: false, reason: "invalid" });
      const { rows } = await listAudit(db.engine, { actor: "nobody@example.test" });
      expect(rows[0]).toMatchObject({ action: "auth.sign_in", outcome: "failure", errorCode: "INVALID_CREDENTIALS" });
    });
  });

  describe(`desk sessions on ${engine.name}`, () => {
    let db: AppDb;
    withProcessDb(engine, (fresh) => {
      db = fresh;
    });

    it("a disable (Admin → Staff) ends the desk sessions: a cookie issued before it is refused once enabled again", async () => {
      const user = await createStaff(db, { email: "cookie@example.test", name: "C", role: "support", password: "a long enough password" });
      request.cookie = await sessionCookie(user.id, Date.now() - 60_000);
      expect(await currentStaff()).toMatchObject({ id: user.id, role: "support" });
      await updateStaff(db, user.id, { disabled: true });
      expect(await currentStaff()).toBeNull();
      await updateStaff(db, user.id, { disabled: false });
      expect(await currentStaff()).toBeNull();
      // A sign-in after the disable is a session again; other changes (a role, an unlock) end none.
      request.cookie = await sessionCookie(user.id, Date.now() + 60_000);
      expect(await currentStaff()).toMatchObject({ id: user.id });
      await updateStaff(db, user.id, { role: "compliance" });
      await updateStaff(db, user.id, { unlock: true });
      expect(await currentStaff()).toMatchObject({ id: user.id, role: "compliance" });
    });
  });
}
