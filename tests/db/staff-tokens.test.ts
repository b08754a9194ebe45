import { createHash } from "node:crypto";
import { roleAccess } from "../helpers/staff";
import { describe, expect, it } from "vitest";
import type { Staff } from "@/server/auth/guard";
import { createStaff, revokeSessions, updateStaff } from "@/server/auth/staff";
import type { AppDb } from "@/server/db";
import { authenticateBearer, bearerErrorResponse, type BearerOptions, type BearerResult } from "@/server/tokens/bearer";
import { createToken, revokeToken } from "@/server/tokens/tokens";
import { setRequiredRoles } from "@/server/two-factor/two-factor";
import { testEngines, withEngineDb } from "../helpers/engines";
import { enrol } from "../helpers/two-factor";

/** authenticateBearer against a real database (PGlite, and the PostgreSQL server when TEST_DATABASE_URL is set). */
const call = (secret: string | undefined, headers: Record<string, string> = {}) =>
  new Request("http://desk.test/api/tokens/me", {
    headers: secret === undefined ? headers : { authorization: `Bearer ${secret}`, ...headers },
  });
const DAY = 86_400_000;
let n = 0;

for (const engine of testEngines()) {
  describe(`bearer tokens on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, (fresh) => {
      db = fresh;
    });
    const opts = (o: Omit<BearerOptions, "db"> = {}): BearerOptions => ({ db, ...o });

    async function staffMember(role: "admin" | "operations" | "support" | "compliance" = "support"): Promise<Staff> {
      const u = await createStaff(db, { email: `t${++n}@tokens.test`, name: `Person ${n}`, role, password: "a long enough password" });
      return { id: u.id, email: u.email, name: u.name, ...roleAccess(role) };
    }
    const lastUse = async (id: string) =>
      (await db.engine.query<{ at: Date | null }>("SELECT last_used_at AS at FROM brokerdesk.staff_tokens WHERE id = $1", [id])).rows[0].at;

    it("a valid token is its owner, with the owner's role, the token's id and scopes; the call is recorded", async () => {
      const owner = await staffMember("operations");
      const token = await createToken(db, owner, { name: "assistant", access: "read_write", expiresInDays: "30" });
      const now = new Date(Date.now() + 1_000);
      const result = await authenticateBearer(call(token.secret), opts({ now }));
      expect(result).toEqual({ ok: true, caller: { staff: owner, tokenId: token.id, scopes: ["read", "write"] } });
      expect(await lastUse(token.id)).toEqual(now);
    });

    it("stores the secret's SHA-256 only: no column holds the secret", async () => {
      const owner = await staffMember();
      const token = await createToken(db, owner, { name: "hash only", access: "read", expiresInDays: "7" });
      expect(token.secret).toMatch(/^bdk_[A-Za-z0-9_-]{43}$/);
      const { rows } = await db.engine.query<{ hash: string; prefix: string; row: string }>(
        "SELECT token_hash AS hash, prefix, row_to_json(t)::text AS row FROM brokerdesk.staff_tokens t WHERE id = $1",
        [token.id],
      );
      expect(rows[0].hash).toBe(createHash("sha256").update(token.secret).digest("hex"));
      expect(rows[0].prefix).toBe(token.secret.slice(0, 10));
      expect(rows[0].row).not.toContain(token.secret.slice(10));
    });

    it("refuses a missing, malformed, unknown or altered token with one 401", async () => {
      const owner = await staffMember();
      const token = await createToken(db, owner, { name: "real", access: "read", expiresInDays: "7" });
      const last = token.secret.at(-1) === "A" ? "B" : "A";
      const refusals = [
        call(undefined),
        call(undefined, { authorization: `Basic ${token.secret}` }),
        call("not-a-token"),
        call(`bdk_${"x".repeat(43)}`),
        call(`${token.secret.slice(0, -1)}${last}`),
        call(`${token.secret} extra`),
      ];
      for (const request of refusals) {
        expect(await authenticateBearer(request, opts())).toMatchObject({ ok: false, status: 401, error: "UNAUTHENTICATED" });
      }
      expect(await lastUse(token.id)).toBeNull();
      // The scheme's case does not matter (RFC 7235).
      expect(await authenticateBearer(call(undefined, { authorization: `bearer ${token.secret}` }), opts())).toMatchObject({ ok: true });
    });

    it("a revoked token is refused from its next call", async () => {
      const owner = await staffMember();
      const token = await createToken(db, owner, { name: "to revoke", access: "read", expiresInDays: "7" });
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: true });
      await revokeToken(db, owner, token.id);
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: false, status: 401 });
    });

    it("an expired token is refused: valid until the moment it expires, not from then on", async () => {
      const owner = await staffMember();
      const created = new Date("2026-01-10T09:00:00.000Z");
      const token = await createToken(db, owner, { name: "short", access: "read", expiresInDays: "7" }, created);
      const expiry = created.getTime() + 7 * DAY;
      expect(token.expiresAt).toBe(new Date(expiry).toISOString());
      expect(await authenticateBearer(call(token.secret), opts({ now: new Date(expiry - 1) }))).toMatchObject({ ok: true });
      expect(await authenticateBearer(call(token.secret), opts({ now: new Date(expiry) }))).toMatchObject({ ok: false, status: 401 });
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: false, status: 401 });
    });

    it("a disabled owner's tokens are refused at once; their ended sessions are not the token's concern", async () => {
      const owner = await staffMember();
      const token = await createToken(db, owner, { name: "separate", access: "read", expiresInDays: "7" });
      await revokeSessions(db, owner.id);
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: true });
      await updateStaff(db, owner.id, { disabled: true });
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: false, status: 401 });
      await updateStaff(db, owner.id, { disabled: false });
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: true });
    });

    it("an owner whose role came to require two-factor sign-in is refused (403 ENROL_FIRST) until they enrol", async () => {
      const owner = await staffMember("compliance");
      const admin = await staffMember("admin");
      // Minted before the rule: it worked then.
      const token = await createToken(db, owner, { name: "before the rule", access: "read", expiresInDays: "7" });
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: true });
      await setRequiredRoles(db, ["compliance"], admin.id);
      try {
        expect(await authenticateBearer(call(token.secret), opts())).toEqual({
          ok: false,
          status: 403,
          error: "ENROL_FIRST",
          message: expect.stringContaining("Settings → Security"),
        });
        const refused = bearerErrorResponse((await authenticateBearer(call(token.secret), opts())) as Extract<BearerResult, { ok: false }>);
        expect([refused.status, (await refused.json()).error]).toEqual([403, "ENROL_FIRST"]);
        await enrol(db, owner);
        expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: true, caller: { staff: { id: owner.id } } });
      } finally {
        await setRequiredRoles(db, [], admin.id);
      }
    });

    it("acts with the owner's role as it is at the call: a role change applies at the next call", async () => {
      const owner = await staffMember("support");
      const token = await createToken(db, owner, { name: "role", access: "read", expiresInDays: "7" });
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: true, caller: { staff: { role: "support" } } });
      await updateStaff(db, owner.id, { role: "compliance" });
      expect(await authenticateBearer(call(token.secret), opts())).toMatchObject({ ok: true, caller: { staff: { role: "compliance" } } });
    });

    it("limits calls a minute per token: 429 with the seconds left, its use not recorded, allowed again in the next window", async () => {
      const owner = await staffMember();
      const token = await createToken(db, owner, { name: "busy", access: "read", expiresInDays: "7" });
      const other = await createToken(db, owner, { name: "quiet", access: "read", expiresInDays: "7" });
      const t0 = Date.now() + 1_000;
      const at = (ms: number) => opts({ now: new Date(t0 + ms), limitPerMinute: 3 });
      for (const ms of [0, 10_000, 20_000]) expect(await authenticateBearer(call(token.secret), at(ms))).toMatchObject({ ok: true });
      expect(await authenticateBearer(call(token.secret), at(20_000))).toEqual({
        ok: false,
        status: 429,
        error: "RATE_LIMITED",
        message: expect.stringContaining("more than 3 calls"),
        retryAfterSeconds: 40,
      });
      expect(await authenticateBearer(call(token.secret), at(59_500))).toMatchObject({ status: 429, retryAfterSeconds: 1 });
      expect(await lastUse(token.id)).toEqual(new Date(t0 + 20_000));
      // Another token of the same owner has its own window.
      expect(await authenticateBearer(call(other.secret), at(30_000))).toMatchObject({ ok: true });
      // The window ends a minute after its first call: a new one starts.
      expect(await authenticateBearer(call(token.secret), at(60_000))).toMatchObject({ ok: true });
      expect(await lastUse(token.id)).toEqual(new Date(t0 + 60_000));
      for (const ms of [60_001, 60_002]) expect(await authenticateBearer(call(token.secret), at(ms))).toMatchObject({ ok: true });
      expect(await authenticateBearer(call(token.secret), at(60_003))).toMatchObject({ status: 429, retryAfterSeconds: 60 });
    });

    it("counts concurrent calls exactly: of 12 at once with a limit of 5, five pass", async () => {
      const owner = await staffMember();
      const token = await createToken(db, owner, { name: "burst", access: "read", expiresInDays: "7" });
      const now = new Date(Date.now() + 1_000);
      const results = await Promise.all(
        Array.from({ length: 12 }, () => authenticateBearer(call(token.secret), opts({ now, limitPerMinute: 5 }))),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      expect(results.filter((r) => !r.ok && r.status === 429)).toHaveLength(7);
    });
  });
}
