import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as activitiesRoute } from "@/app/api/activities/route";
import { GET as alertsRoute } from "@/app/api/alerts/route";
import { GET as approvalsRoute } from "@/app/api/approvals/route";
import { GET as auditExportRoute } from "@/app/api/audit/export/route";
import { GET as auditRoute } from "@/app/api/audit/route";
import { GET as movementsRoute } from "@/app/api/movements/route";
import { GET as ordersRoute } from "@/app/api/orders/route";
import { GET as breaksRoute } from "@/app/api/reconciliation/breaks/route";
import { GET as staffRoute } from "@/app/api/staff/route";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import { appendAudit } from "@/server/audit/trail";
import { createStaff } from "@/server/auth/staff";
import { insertSyntheticOrders } from "@/server/orders/queries/synthetic";
import { withAppDb } from "../helpers/app-db";

/** The GET routes the audit, approvals and staff tables read through, as each role sees them (a fake session). */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));

const as = (role: string) => ({
  id: `00000000-0000-4000-8000-${String(role.length).padStart(12, "0")}`,
  email: `${role}@example.test`,
  name: role,
  role,
});
const ADMIN = as("admin");
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

  it("/api/audit and its export: a target that is an account's number, in any case, finds that account's entries", async () => {
    session.staff = ADMIN;
    await rememberAccountNumbers(db().engine, [{ account_id: "acc-123", account_number: "VBD1000030" }]);
    await appendAudit(db(), { actorEmail: "ops@example.test", action: "accounts.update", target: "account:acc-123", outcome: "success" });
    await appendAudit(db(), { actorEmail: "ops@example.test", action: "orders.cancel", target: "order:acc-123:c-1", outcome: "success" });
    await appendAudit(db(), { actorEmail: "ops@example.test", action: "accounts.update", target: "account:acc-456", outcome: "success" });
    const byId = (await (await call(auditRoute, "/api/audit?target=acc-123")).json()) as {
      rows: { target: string; targetAccountNumber?: string }[];
    };
    expect(byId.rows.map((r) => [r.target, r.targetAccountNumber])).toEqual([
      ["order:acc-123:c-1", "VBD1000030"],
      ["account:acc-123", "VBD1000030"],
    ]);
    for (const target of ["VBD1000030", "vbd1000030"]) {
      const res = await call(auditRoute, `/api/audit?target=${target}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as typeof byId).rows, target).toEqual(byId.rows);
      const csv = await call(auditExportRoute, `/api/audit/export?target=${target}`);
      expect(csv.status).toBe(200);
      const lines = (await csv.text()).trim().split("\r\n").slice(1);
      expect(
        lines.map((l) => l.split(",")[5]),
        target,
      ).toEqual(["order:acc-123:c-1", "account:acc-123"]);
    }
    // A number the desk does not know finds nothing (it is read as an account id, as before).
    expect(((await (await call(auditRoute, "/api/audit?target=VBD9999999")).json()) as typeof byId).rows).toEqual([]);
  });

  it("answers a forged or stale cursor with the first page (200), on every keyset listing", async () => {
    session.staff = ADMIN;
    for (let i = 0; i < 3; i++) await appendAudit(db(), { actorEmail: "ops@example.test", action: "orders.cancel", outcome: "success" });
    await insertSyntheticOrders(db().engine, { count: 3, accounts: 2 });
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const routes: [typeof auditRoute, string][] = [
      [auditRoute, "/api/audit?size=10"],
      [auditRoute, "/api/audit?size=10&sort=action.asc"],
      [staffRoute, "/api/staff?size=10"],
      [alertsRoute, "/api/alerts?size=10"],
      [ordersRoute, "/api/orders?size=10"],
      [movementsRoute, "/api/movements?size=10"],
      [approvalsRoute, "/api/approvals?size=10"],
      [breaksRoute, "/api/reconciliation/breaks?size=10"],
      [activitiesRoute, "/api/activities?size=10"],
    ];
    // A cursor of the action order, read by the default (seq) order.
    const { nextCursor } = (await (await call(auditRoute, "/api/audit?size=1&sort=action.asc")).json()) as { nextCursor: string };
    for (const [route, url] of routes) {
      const first = (await (await call(route, url)).json()) as { rows: unknown[] };
      for (const cursor of [forged(["x", "y"]), forged(["orders.cancel", 2]), nextCursor]) {
        const res = await call(route, `${url}&cursor=${cursor}`);
        expect(res.status, `${url} ${cursor}`).toBe(200);
        if (url !== "/api/audit?size=10&sort=action.asc") expect(((await res.json()) as { rows: unknown[] }).rows, url).toEqual(first.rows);
      }
    }
  });
});
