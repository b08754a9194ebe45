import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as allRoute } from "@/app/api/access-keys/all/route";
import { GET as listRoute } from "@/app/api/access-keys/route";
import type { Role } from "@/lib/auth/permissions";
import type { AccessKeyRow } from "@/lib/schemas/access-key-list";
import type { CreatedAccessKey } from "@/lib/schemas/access-keys";
import { createCliAccessKey, revokeCliAccessKey } from "@/server/actions/cli-keys";
import { listAudit } from "@/server/audit/list";
import type { Staff } from "@/server/auth/guard";
import { MAX_ACTIVE_KEYS } from "@/server/cli-auth/keys";
import { dataOf, withLogs } from "../helpers/actions";
import { session } from "../helpers/desk-session";
import { withAppDb } from "../helpers/app-db";
import { newStaff } from "../helpers/staff";

/** Settings → Command line's actions and listing: who may create, list and revoke keys; the secret key once, in the answer only. */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta());
vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);

const db = withAppDb();
const person = (role: Role) => newStaff(db(), role, "keys.test");
beforeEach(() => {
  session.staff = null;
});

async function create(as: Staff, name: string): Promise<CreatedAccessKey> {
  session.staff = as;
  return dataOf(await createCliAccessKey({ name, access: "read" }));
}
const list = async (as: Staff, view: "mine" | "all" = "mine") => {
  session.staff = as;
  const route = view === "all" ? allRoute : listRoute;
  const res = await route(new Request(`http://desk.test/api/access-keys${view === "all" ? "/all" : ""}`), { params: Promise.resolve({}) });
  return { status: res.status, body: (await res.json()) as { rows: AccessKeyRow[] } };
};

describe("access keys", () => {
  it("creating one answers the pair once; the audit entry and the log lines hold its id, never the secret key", async () => {
    const ops = await person("operations");
    session.staff = ops;
    const { result, logged } = await withLogs(() => createCliAccessKey({ name: "  work laptop ", access: "read_write" }));
    expect(result).toMatchObject({ ok: true, data: { name: "work laptop", scopes: ["read", "write"] } });
    const key = dataOf(result);
    expect(key.id).toMatch(/^bdak_[A-Za-z0-9_-]{20}$/);
    expect(key.secret).toMatch(/^bdsk_[A-Za-z0-9_-]{43}$/);

    const [entry] = (await listAudit(db().engine, { action: "cli.key_create", actor: ops.email })).rows;
    expect(entry).toMatchObject({
      outcome: "success",
      target: `cli_access_key:${key.id}`,
      input: { name: "work laptop", access: "read_write" },
    });
    expect(JSON.stringify(entry)).not.toContain(key.secret);
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain(key.secret);
    const stored = await db().engine.query("SELECT * FROM brokerdesk.cli_access_keys WHERE id = $1", [key.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(key.secret.slice(5));

    const { body } = await list(ops);
    expect(body.rows).toEqual([expect.objectContaining({ id: key.id, status: "active", scopes: ["read", "write"], lastUsedAt: null })]);
    expect(JSON.stringify(body)).not.toContain(key.secret);
  });

  it("refuses a bad name on its field, and more active keys than one may hold", async () => {
    const support = await person("support");
    session.staff = support;
    expect(await createCliAccessKey({ name: " ", access: "read" })).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { name: expect.any(String) },
    });
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await create(support, `key ${i}`);
    expect(await createCliAccessKey({ name: "one more", access: "read" })).toMatchObject({ ok: false, code: "TOO_MANY_KEYS" });
  });

  it("one revokes one's own; someone else's is not found unless one is an administrator, who sees and revokes anyone's", async () => {
    const owner = await person("compliance");
    const other = await person("operations");
    const admin = await person("admin");
    const key = await create(owner, "mine");

    session.staff = other;
    expect(await revokeCliAccessKey({ id: key.id })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect((await list(other, "all")).status).toBe(403);

    expect((await list(admin, "all")).body.rows.map((r) => r.id)).toContain(key.id);
    session.staff = admin;
    expect(await revokeCliAccessKey({ id: key.id })).toMatchObject({ ok: true, data: { id: key.id, ownerId: owner.id } });
    expect(await revokeCliAccessKey({ id: key.id })).toMatchObject({ ok: false, code: "ALREADY_REVOKED" });
    const [row] = (await list(owner)).body.rows;
    expect(row).toMatchObject({ id: key.id, status: "revoked", revokedByEmail: admin.email });
    expect((await listAudit(db().engine, { action: "cli.key_revoke", actor: admin.email })).rows.map((e) => e.outcome)).toEqual([
      "failure",
      "success",
    ]);

    const own = await create(owner, "again");
    session.staff = owner;
    expect(await revokeCliAccessKey({ id: own.id })).toMatchObject({ ok: true });
  });
});
