import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as listRoute } from "@/app/api/tokens/route";
import { GET as allRoute } from "@/app/api/tokens/all/route";
import { GET as meRoute } from "@/app/api/tokens/me/route";
import type { Role } from "@/lib/auth/permissions";
import type { CreatedToken } from "@/lib/schemas/tokens";
import { createAccessToken, revokeAccessToken } from "@/server/actions/tokens";
import { listAudit } from "@/server/audit/list";
import type { Staff } from "@/server/auth/guard";
import { createToken, MAX_ACTIVE_TOKENS } from "@/server/tokens/tokens";
import { dataOf, withLogs } from "../helpers/actions";
import { session } from "../helpers/desk-session";
import { withAppDb } from "../helpers/app-db";
import { newStaff } from "../helpers/staff";

/** The token actions and routes: who may create, list and revoke; the secret once, in the answer only. */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta());
vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);

const db = withAppDb();
/** A staff member of its own for each test (tokens belong to staff users: the table's foreign key). */
const person = (role: Role) => newStaff(db(), role, "tokens.test");
beforeEach(() => {
  session.staff = null;
});

async function create(as: Staff, name: string): Promise<CreatedToken> {
  session.staff = as;
  return dataOf(await createAccessToken({ name, access: "read", expiresInDays: "30" }));
}
const me = (secret: string) => meRoute(new Request("http://desk.test/api/tokens/me", { headers: { authorization: `Bearer ${secret}` } }));
const get = (route: typeof listRoute, url: string) => route(new Request(`http://desk.test${url}`), { params: Promise.resolve({}) });
const list = (url: string) => get(listRoute, url);
const entries = async (action: string, actor: string) => (await listAudit(db().engine, { action, actor })).rows;

describe("creating a token", () => {
  it("answers the secret once; the audit entry and the log lines hold the input and the token's id, never the secret", async () => {
    const ops = await person("operations");
    session.staff = ops;
    const { result, logged } = await withLogs(() =>
      createAccessToken({ name: "  Claude desktop ", access: "read_write", expiresInDays: "90" }),
    );

    expect(result).toMatchObject({ ok: true, data: { name: "Claude desktop", scopes: ["read", "write"] } });
    const token = dataOf(result);
    expect(token.secret).toMatch(/^bdk_/);
    expect(new Date(token.expiresAt).getTime() - Date.now()).toBeGreaterThan(89 * 86_400_000);

    const [entry] = await entries("tokens.create", ops.email);
    expect(entry).toMatchObject({
      outcome: "success",
      target: `staff_token:${token.id}`,
      input: { name: "Claude desktop", access: "read_write", expiresInDays: "90" },
    });
    expect(JSON.stringify(entry)).not.toContain(token.secret);
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain(token.secret);
    expect(await (await me(token.secret)).json()).toEqual({
      email: ops.email,
      role: "operations",
      tokenId: token.id,
      scopes: ["read", "write"],
    });
  });

  it("refuses a bad name or expiry on the fields, and more than the active tokens one may hold", async () => {
    const support = await person("support");
    session.staff = support;
    expect(await createAccessToken({ name: " ", access: "read", expiresInDays: "30" })).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { name: "Name the token after what will use it" },
    });
    expect(await createAccessToken({ name: "x", access: "admin" as never, expiresInDays: "400" as never })).toMatchObject({
      ok: false,
      fieldErrors: { access: "Choose what the token may do", expiresInDays: "Choose when the token expires" },
    });
    const made = [];
    for (let i = 0; i < MAX_ACTIVE_TOKENS; i++) made.push(await create(support, `bot ${i}`));
    expect(await createAccessToken({ name: "one more", access: "read", expiresInDays: "7" })).toMatchObject({
      ok: false,
      code: "TOO_MANY_TOKENS",
    });
    await revokeAccessToken({ id: made[0].id });
    expect(await createAccessToken({ name: "one more", access: "read", expiresInDays: "7" })).toMatchObject({ ok: true });
  });
});

describe("revoking a token", () => {
  it("support may revoke its own token but not another's (not found, audited); the token keeps working", async () => {
    const [ops, support] = [await person("operations"), await person("support")];
    const theirs = await create(ops, "ops bot");
    const mine = await create(support, "support bot");

    session.staff = support;
    expect(await revokeAccessToken({ id: theirs.id })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect((await me(theirs.secret)).status).toBe(200);
    const [refused] = await entries("tokens.revoke", support.email);
    expect(refused).toMatchObject({
      outcome: "failure",
      errorCode: "NOT_FOUND",
      target: `staff_token:${theirs.id}`,
      input: { id: theirs.id },
    });

    expect(await revokeAccessToken({ id: mine.id })).toEqual({ ok: true, data: { id: mine.id, ownerId: support.id } });
    expect((await me(mine.secret)).status).toBe(401);
    expect(await revokeAccessToken({ id: mine.id })).toMatchObject({ ok: false, code: "ALREADY_REVOKED" });
  });

  it("an admin revokes anyone's token; the list says who revoked it", async () => {
    const [admin, support] = [await person("admin"), await person("support")];
    const theirs = await create(support, "support assistant");
    session.staff = admin;
    expect(await revokeAccessToken({ id: theirs.id })).toMatchObject({ ok: true });
    const res = await me(theirs.secret);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({ error: "UNAUTHENTICATED" });

    session.staff = support;
    const page = (await (await list("/api/tokens")).json()) as { rows: { id: string; status: string; revokedByEmail: string }[] };
    expect(page.rows.find((r) => r.id === theirs.id)).toMatchObject({ status: "revoked", revokedByEmail: admin.email });
  });
});

describe("the list route", () => {
  it("lists one's own tokens; everyone's only with tokens:manage; never a secret or a hash", async () => {
    const [admin, ops, support] = [await person("admin"), await person("operations"), await person("support")];
    const opsToken = await create(ops, "ops listing");
    const supportToken = await create(support, "support listing");

    session.staff = support;
    const mine = (await (await list("/api/tokens?size=100")).json()) as { rows: { id: string; owner: { email: string } }[] };
    expect(mine.rows.map((r) => r.id)).toContain(supportToken.id);
    expect(mine.rows.every((r) => r.owner.email === support.email)).toBe(true);
    expect(JSON.stringify(mine)).not.toContain(supportToken.secret.slice(10));
    expect((await get(allRoute, "/api/tokens/all")).status).toBe(403);

    session.staff = admin;
    const all = (await (await get(allRoute, "/api/tokens/all?size=100")).json()) as { rows: { id: string }[] };
    expect(all.rows.map((r) => r.id)).toEqual(expect.arrayContaining([opsToken.id, supportToken.id]));
    const adminOwn = (await (await list("/api/tokens")).json()) as { rows: unknown[] };
    expect(adminOwn.rows).toEqual([]);
  });

  it("pages newest first with a cursor; a hand-made cursor is the first page", async () => {
    const admin = await person("admin");
    const start = Date.now();
    for (let i = 0; i < 12; i++) {
      await createToken(db(), admin, { name: `page ${i}`, access: "read", expiresInDays: "7" }, new Date(start + i * 1000));
    }
    session.staff = admin;
    type Page = { rows: { name: string }[]; nextCursor?: string };
    const first = (await (await list("/api/tokens?size=10")).json()) as Page;
    expect(first.rows.map((r) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `page ${11 - i}`));
    const rest = (await (await list(`/api/tokens?size=10&cursor=${first.nextCursor}`)).json()) as Page;
    expect(rest.rows.map((r) => r.name)).toEqual(["page 1", "page 0"]);
    expect(rest.nextCursor).toBeUndefined();
    const bogus = Buffer.from(JSON.stringify(["yesterday", "x"])).toString("base64url");
    const again = (await (await list(`/api/tokens?size=10&cursor=${bogus}`)).json()) as Page;
    expect(again.rows[0].name).toBe("page 11");
  });
});
