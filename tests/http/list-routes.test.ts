import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as approvalsRoute } from "@/app/api/approvals/route";
import { GET as auditRoute } from "@/app/api/audit/route";
import { GET as staffRoute } from "@/app/api/staff/route";
import { appendAudit } from "@/server/audit/trail";
import { createStaff } from "@/server/auth/staff";
import { withAppDb } from "../helpers/app-db";

/** The GET routes the audit, approvals and staff tables read through, as each role sees them (a fake session). */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));

const as = (role: string) => ({ id: `00000000-0000-4000-8000-00000000000${role.length}`, email: `${role}@example.test`, name: role, role });
const db = withAppDb();
beforeEach(() => {
  session.staff = as("compliance");
});

const call = (handler: typeof auditRoute, url: string) =>
  handler(new Request(`http://desk.test${url}`, { headers: { "user-agent": "vitest" } }), { params: Promise.resolve({}) });

describe("list routes", () => {
  it("/api/audit: one keyset page of the filter, without hashes, the next cursor; 403 for support, 401 signed out", async () => {
    for (let i = 0; i < 3; i++) await appendAudit(db(), { actorEmail: "ops@example.test", action: "orders.cancel", outcome: "success" });
    await appendAudit(db(), { actorEmail: "ops@example.test", action: "staff.create", outcome: "success" });
    const res = await call(auditRoute, "/api/audit?action=orders.cancel&size=10");
    expect(res.status).toBe(200);
    const page = (await res.json()) as { rows: { action: string; hash?: string; seq: number }[]; nextCursor?: string };
    expect(page.rows.map((r) => r.action)).toEqual(["orders.cancel", "orders.cancel", "orders.cancel"]);
    expect(page.rows[0]).not.toHaveProperty("hash");
    expect(page.nextCursor).toBeUndefined();

    await appendAudit(db(), { actorEmail: "ops@example.test", action: "orders.cancel", outcome: "success" });
    const first = (await (await call(auditRoute, "/api/audit?action=orders.cancel&size=10&sort=seq.asc")).json()) as {
      rows: { seq: number }[];
    };
    expect(first.rows).toHaveLength(4);
    expect(first.rows[0].seq).toBeLessThan(first.rows[3].seq);

    session.staff = as("support");
    expect((await call(auditRoute, "/api/audit")).status).toBe(403);
    session.staff = null;
    expect((await call(auditRoute, "/api/audit")).status).toBe(401);
  });

  it("/api/staff: the page in the list's sort for an admin; 403 for compliance", async () => {
    for (const email of ["b@example.test", "a@example.test", "c@example.test"])
      await createStaff(db(), { email, name: email, role: "support", password: "a-long-enough-password" });
    session.staff = as("admin");
    const res = await call(staffRoute, "/api/staff?size=10&sort=email.desc");
    expect(res.status).toBe(200);
    const page = (await res.json()) as { rows: { email: string; passwordHash?: string }[] };
    expect(page.rows.map((r) => r.email)).toEqual(["c@example.test", "b@example.test", "a@example.test"]);
    expect(page.rows[0]).not.toHaveProperty("passwordHash");
    session.staff = as("compliance");
    expect((await call(staffRoute, "/api/staff")).status).toBe(403);
  });

  it("/api/approvals: the inbox page with the server's clock; 403 for support", async () => {
    session.staff = as("operations");
    const res = await call(approvalsRoute, "/api/approvals?status=pending");
    expect(res.status).toBe(200);
    const page = (await res.json()) as { rows: unknown[]; now: string };
    expect(page.rows).toEqual([]);
    expect(Date.parse(page.now)).toBeGreaterThan(Date.now() - 60_000);
    session.staff = as("support");
    expect((await call(approvalsRoute, "/api/approvals")).status).toBe(403);
  });
});
